// An autogen kernel in a process where no library registers copy_: a clear error
// naming the operator and what to do, not a crash.
#include <gtest/gtest.h>

#include <string>

#include "autogen_ops/Functions.h"

TEST(Autogen, WithoutACopyOperatorSaysWhatIsMissing) {
  sops::Tensor lo = sops::empty({1}, sops::TensorOptions(sops::kFloat));
  sops::Tensor hi = sops::empty({1}, sops::TensorOptions(sops::kFloat));
  sops::Tensor x = sops::empty({1}, sops::TensorOptions(sops::kFloat));
  *x.data_ptr<float>() = 1;
  try {
    autogen_ops::minmax_out(lo, hi, x);
    FAIL() << "expected an error";
  } catch (const sops::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("minmax.out"), std::string::npos) << message;
    EXPECT_NE(message.find("which no library of this process registers"), std::string::npos)
        << message;
  }
}
