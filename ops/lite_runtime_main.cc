// `lite_runtime`: the lite interpreter (//lite) over this library's operators.
// See lite/cli.h for the commands; lite/FORMAT.md for the model file.
#include <exception>
#include <iostream>

#include "aten_cpu/UnboxingFunctions.h"
#include "lite/cli.h"

int main(int argc, char** argv) {
  try {
    sops::aten::register_aten_cpu_kernels();
  } catch (const std::exception& e) {
    std::cerr << "lite_runtime: error: " << e.what() << "\n";
    return 1;
  }
  return sops::lite::run_cli(argc, argv);
}
