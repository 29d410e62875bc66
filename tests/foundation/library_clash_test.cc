// Two generated libraries linked into one program, both declaring `relu` (demo_ops and
// clashing_ops): the program starts (a throw from a static initializer would end it
// before main()), and a call of the operator they share is an error naming the
// operator, both libraries and both yamls, with the fix. Their other operators work.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "clashing_ops/Functions.h"
#include "demo_ops/Functions.h"
#include "runtime/dispatcher.h"
#include "runtime/tensor.h"

namespace {

sops::Tensor floats(const std::vector<float>& values) {
  sops::Tensor t = sops::empty({static_cast<int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) t.data_ptr<float>()[i] = values[i];
  return t;
}

std::vector<float> elements(const sops::Tensor& t) {
  return std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
}

std::string error_of_relu(sops::Tensor (*relu)(const sops::Tensor&)) {
  try {
    relu(floats({-1, 1}));
  } catch (const sops::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(LibraryClash, CallingTheSharedOperatorNamesBothLibrariesAndYamls) {
  for (auto relu : {&demo::ops::relu, &clashing::ops::relu}) {
    const std::string what = error_of_relu(relu);
    EXPECT_EQ(what.rfind("relu: registered by two libraries: library '", 0), 0u) << what;
    EXPECT_NE(what.find("'demo_ops' (from tests/foundation/testdata/demo_ops.yaml)"),
              std::string::npos) << what;
    EXPECT_NE(what.find("'clashing_ops' (from tests/foundation/testdata/clashing_ops.yaml)"),
              std::string::npos) << what;
    EXPECT_NE(what.find("declare one library's operators in a namespace of its own (e.g. "
                        "`func: my_ops::relu(...)` in its yaml), or link only one of them"),
              std::string::npos) << what;
  }
  EXPECT_THROW(sops::Dispatcher::singleton().find("relu"), sops::Error);
}

TEST(LibraryClash, TheOtherOperatorsOfBothLibrariesWork) {
  EXPECT_EQ(elements(demo::ops::add(floats({1, 2}), floats({10, 20}))),
            (std::vector<float>{11, 22}));
  EXPECT_EQ(elements(clashing::ops::negate(floats({1, -2}))), (std::vector<float>{-1, 2}));
}

}  // namespace
