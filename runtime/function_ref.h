// FunctionRef<R(Args...)>: a non-owning reference to a callable, two pointers wide,
// for passing lambdas to non-template functions without std::function's allocation.
// The callable must outlive the FunctionRef (pass it down the stack only).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace sops {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef> &&
                                                    std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f)  // NOLINT: implicit from any callable
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        callback_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return callback_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*callback_)(void*, Args...);
};

}  // namespace sops
