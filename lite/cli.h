// The `lite_runtime` command line: run, ops, trace and shapes on a model file.
// A binary hands over to run_cli with the function that registers its operator
// library's kernels:
//
//   int main(int argc, char** argv) {
//     return sops::lite::run_cli(argc, argv, &sops::aten::register_aten_kernels);
//   }
//
// Every failure (a bad model, a missing operator, a wrong input, an unreadable .npy, a
// registration that fails) prints one "lite_runtime: error: ..." message to stderr and
// returns 1, in builds with or without exceptions; a usage mistake prints the usage and
// returns 2.
#pragma once

namespace sops {
class OperatorRegistry;
}  // namespace sops

namespace sops::lite {

// Registers the kernels into OperatorRegistry::global() with `register_kernels`, then
// runs the command argv names.
int run_cli(int argc, char** argv, void (*register_kernels)(OperatorRegistry& registry));

}  // namespace sops::lite
