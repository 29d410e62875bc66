// The `lite_runtime` command line: run, ops, trace and shapes on a model file.
// A binary registers its operator library's kernels and hands over to run_cli:
//
//   int main(int argc, char** argv) {
//     sops::aten::register_aten_cpu_kernels();
//     return sops::lite::run_cli(argc, argv);
//   }
//
// Every failure (a bad model, a missing operator, a wrong input, an unreadable .npy)
// prints one "lite_runtime: error: ..." message to stderr and returns 1; a usage
// mistake prints the usage and returns 2.
#pragma once

namespace sops::lite {

int run_cli(int argc, char** argv);

}  // namespace sops::lite
