// The dispatcher: registration, key computation from arguments, fallback order,
// fallthrough, and the errors a user sees.
#include "runtime/dispatcher.h"

#include <algorithm>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "runtime/device_guard.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::DispatchKey;
using sops::RegisterFallthrough;
using sops::RegisterKernel;
using sops::RegisterOperator;
using sops::Scalar;
using sops::Tensor;

using AddSig = std::string(const Tensor&, const Tensor&, const Scalar&);

std::string cpu_kernel(const Tensor&, const Tensor&, const Scalar&) { return "cpu"; }
std::string meta_kernel(const Tensor&, const Tensor&, const Scalar&) { return "meta"; }
std::string common_kernel(const Tensor&, const Tensor&, const Scalar&) { return "common"; }
std::string explicit_kernel(const Tensor&, const Tensor&, const Scalar&) { return "explicit"; }
std::string implicit_kernel(const Tensor&, const Tensor&, const Scalar&) { return "implicit"; }

const sops::TensorOptions kMetaOptions = sops::TensorOptions().device(sops::kMeta);

TEST(Dispatcher, FindsOperatorsAndTheirSchema) {
  RegisterOperator def("test_find.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  auto op = sops::Dispatcher::singleton().find("test_find.Tensor");
  EXPECT_EQ(op.name(), "test_find.Tensor");
  EXPECT_EQ(op.schema(),
            "test_find.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_TRUE(op.registered_keys().empty());
  EXPECT_FALSE(sops::Dispatcher::singleton().try_find("test_find").has_value());
  EXPECT_THROW(sops::Dispatcher::singleton().find("no_such_op"), sops::Error);
}

TEST(Dispatcher, CallsTheKernelOfTheArgumentsDevice) {
  RegisterOperator def(
      "test_device.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  RegisterKernel cpu("test_device.Tensor", DispatchKey::CPU, &cpu_kernel);
  RegisterKernel meta("test_device.Tensor", DispatchKey::Meta, &meta_kernel);
  const auto op = sops::Dispatcher::singleton().find("test_device.Tensor").typed<AddSig>();
  EXPECT_EQ(op.call(sops::empty({2}), sops::empty({2}), 1), "cpu");
  EXPECT_EQ(op(sops::empty({2}, kMetaOptions), sops::empty({2}, kMetaOptions), 1), "meta");
  EXPECT_EQ(op.call_for_backend(DispatchKey::Meta, sops::empty({1}), sops::empty({1}), 1), "meta");
}

TEST(Dispatcher, FallsBackThroughCommonThenCompositeKeys) {
  RegisterKernel implicit("test_fallback", DispatchKey::CompositeImplicitAutograd,
                          &implicit_kernel);
  auto handle = sops::Dispatcher::singleton().find("test_fallback");
  const auto op = handle.typed<AddSig>();
  const Tensor m = sops::empty({1}, kMetaOptions);
  EXPECT_EQ(op.call(m, m, 1), "implicit");
  {
    RegisterKernel explicit_("test_fallback", DispatchKey::CompositeExplicitAutograd,
                             &explicit_kernel);
    EXPECT_EQ(op.call(m, m, 1), "explicit");
    {
      RegisterKernel common("test_fallback", DispatchKey::Common, &common_kernel);
      EXPECT_EQ(op.call(m, m, 1), "common");
      EXPECT_EQ(handle.resolved_key(DispatchKey::CUDA), DispatchKey::Common);
      {
        RegisterKernel meta("test_fallback", DispatchKey::Meta, &meta_kernel);
        EXPECT_EQ(op.call(m, m, 1), "meta");
        EXPECT_EQ(op.call(sops::empty({1}), sops::empty({1}), 1), "common");  // cpu
      }
      EXPECT_EQ(op.call(m, m, 1), "common");  // deregistered again
    }
    EXPECT_EQ(op.call(m, m, 1), "explicit");
  }
  EXPECT_EQ(op.call(m, m, 1), "implicit");
}

TEST(Dispatcher, MissingKernelErrorListsWhatIsRegistered) {
  RegisterKernel cpu("test_missing.Tensor", DispatchKey::CPU, &cpu_kernel);
  RegisterKernel explicit_("test_missing.Tensor", DispatchKey::CompositeExplicitAutograd,
                           &explicit_kernel);
  RegisterFallthrough skip("test_missing.Tensor", DispatchKey::CompositeExplicitAutograd,
                           DispatchKey::Meta);
  const auto op = sops::Dispatcher::singleton().find("test_missing.Tensor").typed<AddSig>();
  const Tensor m = sops::empty({1}, kMetaOptions);
  try {
    op.call(m, m, 1);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "test_missing.Tensor");
    EXPECT_STREQ(e.what(),
                 "test_missing.Tensor: no kernel for dispatch key Meta; registered: "
                 "CPU, CompositeExplicitAutograd");
  }
}

TEST(Dispatcher, FallthroughSkipsAKeyForOneBackend) {
  RegisterKernel common("test_fallthrough", DispatchKey::Common, &common_kernel);
  RegisterKernel explicit_("test_fallthrough", DispatchKey::CompositeExplicitAutograd,
                           &explicit_kernel);
  const auto op = sops::Dispatcher::singleton().find("test_fallthrough").typed<AddSig>();
  const Tensor m = sops::empty({1}, kMetaOptions);
  const Tensor c = sops::empty({1});
  {
    // The backend opts out of Common (the RFC's makeFallthrough).
    RegisterFallthrough skip("test_fallthrough", DispatchKey::Common, DispatchKey::Meta);
    EXPECT_EQ(op.call(m, m, 1), "explicit");
    EXPECT_EQ(op.call(c, c, 1), "common");  // other backends unaffected
  }
  EXPECT_EQ(op.call(m, m, 1), "common");
  {
    // For every operator at once.
    RegisterFallthrough skip_all("*", DispatchKey::Common, DispatchKey::CPU);
    EXPECT_EQ(op.call(c, c, 1), "explicit");
  }
  EXPECT_EQ(op.call(c, c, 1), "common");
}

TEST(Dispatcher, MixedDevicesAreAnErrorNamingTheOperator) {
  RegisterKernel cpu("test_mixed", DispatchKey::CPU, &cpu_kernel);
  const auto op = sops::Dispatcher::singleton().find("test_mixed").typed<AddSig>();
  try {
    op.call(sops::empty({1}), sops::empty({1}, kMetaOptions), 1);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(),
                 "test_mixed: expected all tensors to be on the same device, but found "
                 "tensors on cpu and meta");
  }
}

TEST(Dispatcher, AcrossDevicesCpuTensorsJoinTheOtherDevicesKernel) {
  // device_check: NoCheck operators (Functions.cpp calls call_across_devices).
  RegisterKernel cpu("test_across", DispatchKey::CPU, &cpu_kernel);
  RegisterKernel meta("test_across", DispatchKey::Meta, &meta_kernel);
  const auto op = sops::Dispatcher::singleton().find("test_across").typed<AddSig>();
  EXPECT_EQ(op.call_across_devices(sops::empty({1}), sops::empty({1}, kMetaOptions), 1), "meta");
  EXPECT_EQ(op.call_across_devices(sops::empty({1}, kMetaOptions), sops::empty({1}), 1), "meta");
  EXPECT_EQ(op.call_across_devices(sops::empty({1}), sops::empty({1}), 1), "cpu");
  EXPECT_THROW(op.call(sops::empty({1}), sops::empty({1}, kMetaOptions), 1), sops::Error);
}

Tensor factory(sops::IntArrayRef sizes, sops::TensorOptions options) {
  return sops::empty(sizes, options);
}
std::string optional_kernel(const std::optional<Tensor>&, int64_t) { return "cpu"; }
std::string optional_meta(const std::optional<Tensor>&, int64_t) { return "meta"; }

TEST(Dispatcher, KeyComesFromOptionsOrOptionalTensorsToo) {
  RegisterKernel cpu("test_factory", DispatchKey::CPU, &factory);
  RegisterKernel meta("test_factory", DispatchKey::Meta, &factory);
  const auto op = sops::Dispatcher::singleton()
                      .find("test_factory")
                      .typed<Tensor(sops::IntArrayRef, sops::TensorOptions)>();
  EXPECT_TRUE(op.call({2, 2}, kMetaOptions).is_meta());
  EXPECT_TRUE(op.call({2, 2}, sops::TensorOptions()).is_cpu());

  RegisterKernel ocpu("test_optional", DispatchKey::CPU, &optional_kernel);
  RegisterKernel ometa("test_optional", DispatchKey::Meta, &optional_meta);
  const auto op2 = sops::Dispatcher::singleton()
                       .find("test_optional")
                       .typed<std::string(const std::optional<Tensor>&, int64_t)>();
  EXPECT_EQ(op2.call(std::nullopt, 1), "cpu");  // no tensor: cpu
  EXPECT_EQ(op2.call(sops::empty({1}, kMetaOptions), 1), "meta");
}

// The message find() throws for `name`.
std::string find_error(const char* name) {
  return sops::testing::error_message([&] { sops::Dispatcher::singleton().find(name); });
}

// A clash does not throw where it happens (at static initialization that would end the
// process before main()): the first registration stays and find() reports it.
TEST(Dispatcher, DuplicateRegistrationIsAnErrorWhenFound) {
  RegisterKernel cpu("test_duplicate", DispatchKey::CPU, &cpu_kernel);
  EXPECT_NO_THROW(RegisterKernel("test_duplicate", DispatchKey::CPU, &meta_kernel));
  EXPECT_EQ(find_error("test_duplicate"),
            "test_duplicate: a kernel for dispatch key CPU is registered twice");
  EXPECT_THROW(sops::Dispatcher::singleton().try_find("test_duplicate"), sops::Error);

  RegisterOperator def("test_duplicate_def(Tensor self) -> Tensor");
  EXPECT_NO_THROW(RegisterOperator("test_duplicate_def(Tensor self, int n) -> Tensor"));
  EXPECT_EQ(find_error("test_duplicate_def"),
            "test_duplicate_def: is defined twice: first as 'test_duplicate_def(Tensor self) -> "
            "Tensor', then as 'test_duplicate_def(Tensor self, int n) -> Tensor'");
}

TEST(Dispatcher, AClashBetweenLibrariesNamesBoth) {
  constexpr sops::KernelLibrary a{"lib_a", "a/ops.yaml"};
  constexpr sops::KernelLibrary b{"lib_b", "b/ops.yaml"};
  RegisterOperator def_a("test_clash(Tensor self) -> Tensor", a);
  RegisterKernel cpu_a("test_clash", DispatchKey::CPU, &cpu_kernel, a);
  RegisterOperator def_b("test_clash(Tensor self) -> Tensor", b);
  RegisterKernel cpu_b("test_clash", DispatchKey::CPU, &meta_kernel, b);
  EXPECT_EQ(
      find_error("test_clash"),
      "test_clash: registered by two libraries: library 'lib_a' (from a/ops.yaml) and "
      "library 'lib_b' (from b/ops.yaml). Operator names are global to a process: declare "
      "one library's operators in a namespace of its own (e.g. `func: my_ops::test_clash(...)` "
      "in its yaml), or link only one of them");

  // One library's registrations made twice (linked twice).
  RegisterKernel meta_a("test_clash_twice", DispatchKey::Meta, &meta_kernel, a);
  RegisterKernel meta_a_again("test_clash_twice", DispatchKey::Meta, &meta_kernel, a);
  EXPECT_EQ(find_error("test_clash_twice"),
            "test_clash_twice: registered twice by library 'lib_a' (from a/ops.yaml) (is it linked "
            "into the program twice, e.g. as a static and a shared library?)");
}

TEST(Dispatcher, SignatureMismatchIsAnError) {
  RegisterKernel cpu("test_signature", DispatchKey::CPU, &cpu_kernel);
  auto handle = sops::Dispatcher::singleton().find("test_signature");
  // Both signatures are named as the compiler spells them (read without RTTI:
  // --config=mobile); spaces differ between compilers, so they are left out here.
  std::string wrong =
      sops::testing::error_message([&] { handle.typed<std::string(const Tensor&)>(); });
  wrong.erase(std::remove(wrong.begin(), wrong.end(), ' '), wrong.end());
  EXPECT_NE(wrong.find("test_signature:typed<"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("(*)(constsops::Tensor&)>()doesnotmatchthekernels'signature"),
            std::string::npos)
      << wrong;
  EXPECT_NE(wrong.find("(*)(constsops::Tensor&,constsops::Tensor&,constsops::Scalar&)"),
            std::string::npos)
      << wrong;
  EXPECT_NO_THROW(handle.typed<AddSig>());
  // A kernel of another signature is not installed (a call through a handle typed for
  // the first would be undefined), and the operator reports it from then on.
  RegisterKernel meta("test_signature", DispatchKey::Meta, &factory);
  EXPECT_FALSE(handle.has_kernel(DispatchKey::Meta));
  EXPECT_NE(find_error("test_signature").find("kernel for Meta has signature"), std::string::npos)
      << find_error("test_signature");
}

TEST(Dispatcher, ListsOperatorsSorted) {
  RegisterOperator b("test_list_b(Tensor self) -> Tensor");
  RegisterOperator a("test_list_a(Tensor self) -> Tensor");
  const auto names = sops::Dispatcher::singleton().operator_names();
  const auto ia = std::find(names.begin(), names.end(), "test_list_a");
  const auto ib = std::find(names.begin(), names.end(), "test_list_b");
  ASSERT_NE(ia, names.end());
  ASSERT_NE(ib, names.end());
  EXPECT_LT(ia, ib);
}

TEST(DispatchKey, NamesRoundTrip) {
  for (int i = 0; i < sops::kNumDispatchKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    EXPECT_EQ(sops::parse_dispatch_key(sops::to_string(k)), k);
  }
  EXPECT_FALSE(sops::parse_dispatch_key("XLA").has_value());
  EXPECT_EQ(sops::backend_key(sops::kMeta), DispatchKey::Meta);
}

}  // namespace
