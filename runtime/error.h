// sops::Error: the one exception type of the runtime, and the CHECK macros that throw it.
//
// An Error carries three parts: the operator that failed ("add.out"), the argument
// at fault ("out") and the message. what() joins the non-empty ones:
//   "add.out: argument 'out': expected dtype float32 but got int64"
// Checks inside kernels usually know the argument but not the operator; generated
// wrappers add the operator on the way out:
//   try { ... } catch (sops::Error& e) { e.with_operator("add.out"); throw; }
// or, equivalently, sops::call_with_operator("add.out", [&] { ... }).
// Nothing in the runtime aborts on user input; internal invariants also throw.
#pragma once

#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#if defined(__GNUC__) || defined(__clang__)
#define SOPS_LIKELY(x) (__builtin_expect(static_cast<bool>(x), 1))
#define SOPS_UNLIKELY(x) (__builtin_expect(static_cast<bool>(x), 0))
#else
#define SOPS_LIKELY(x) (x)
#define SOPS_UNLIKELY(x) (x)
#endif

namespace sops {

class Error : public std::exception {
 public:
  explicit Error(std::string message, std::string argument = {}, std::string op = {});

  // The operator name ("add.out"); empty when not known.
  const std::string& op() const noexcept { return op_; }
  // The offending argument ("out"); empty when not known.
  const std::string& argument() const noexcept { return argument_; }
  // The message without operator and argument.
  const std::string& message() const noexcept { return message_; }
  const char* what() const noexcept override { return what_.c_str(); }

  // Sets the operator name unless one is set already (the innermost operator, which
  // raised the error, wins). Returns *this so a catch block can `throw;` after it.
  Error& with_operator(std::string_view op);
  // Sets the argument name unless one is set already.
  Error& with_argument(std::string_view argument);

 private:
  void refresh_what();

  std::string message_;
  std::string argument_;
  std::string op_;
  std::string what_;
};

// Runs f(); a sops::Error escaping it is tagged with the operator name and rethrown.
template <typename F>
decltype(auto) call_with_operator(std::string_view op, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (Error& e) {
    e.with_operator(op);
    throw;
  }
}

namespace detail {

// A string literal is streamed as a const char*: messages that differ only in the
// lengths of their literals share one instantiation of the code that streams them
// (--config=mobile's lite runtime: 79 such instantiations became 35, 3 KB of text).
template <typename T>
const T& as_streamed(const T& value) {
  return value;
}
template <std::size_t N>
const char* as_streamed(const char (&literal)[N]) {
  return literal;
}

template <typename... Args>
std::string streamed_str(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

inline std::string str() { return {}; }
inline std::string str(const char* s) { return s; }
inline std::string str(std::string s) { return s; }
template <typename... Args>
std::string str(const Args&... args) {
  return streamed_str(as_streamed(args)...);
}

[[noreturn]] void throw_check_failure(const char* condition, std::string message,
                                      std::string_view argument);
[[noreturn]] void throw_internal_failure(const char* file, int line, const char* condition,
                                         std::string message);

}  // namespace detail
}  // namespace sops

// SOPS_CHECK(cond, parts...): throws sops::Error with the parts streamed together
// (or "expected <cond> to be true" when there are none) unless cond holds.
#define SOPS_CHECK(cond, ...)                                                         \
  do {                                                                                \
    if (SOPS_UNLIKELY(!(cond))) {                                                     \
      ::sops::detail::throw_check_failure(#cond, ::sops::detail::str(__VA_ARGS__), {}); \
    }                                                                                 \
  } while (false)

// SOPS_CHECK_ARG(cond, "argname", parts...): as SOPS_CHECK, naming the argument.
#define SOPS_CHECK_ARG(cond, argument, ...)                                        \
  do {                                                                             \
    if (SOPS_UNLIKELY(!(cond))) {                                                  \
      ::sops::detail::throw_check_failure(#cond, ::sops::detail::str(__VA_ARGS__), \
                                          (argument));                             \
    }                                                                              \
  } while (false)

// SOPS_INTERNAL_ASSERT(cond, parts...): a broken invariant of the runtime itself (a
// bug, not a user mistake). Still throws sops::Error; the message says so and names
// the source location.
#define SOPS_INTERNAL_ASSERT(cond, ...)                                              \
  do {                                                                               \
    if (SOPS_UNLIKELY(!(cond))) {                                                    \
      ::sops::detail::throw_internal_failure(__FILE__, __LINE__, #cond,              \
                                             ::sops::detail::str(__VA_ARGS__));      \
    }                                                                                \
  } while (false)
