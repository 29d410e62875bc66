// sops::Error: the one error type of the runtime, the CHECK macros that raise it, and
// the scopes that give it its context.
//
// An Error carries three parts: the operator that failed ("add.out"), the argument
// at fault ("out") and the message. what() joins the non-empty ones:
//   "add.out: argument 'out': expected dtype float32 but got int64"
// Checks inside kernels usually know the argument but not the operator. The code around
// them opens scopes that say what it is doing:
//   const sops::OperatorScope scope("add.out");   // generated wrappers
//   const sops::ArgumentScope scope("other");      // checks of one argument
//   const sops::PrefixScope scope(describe, data); // "model.sopsm: node 'add_1' (...)"
// sops::raise(error) applies the open scopes, innermost first, when the error is raised:
// the innermost operator and argument win, and a prefix wraps what is inside it.
//
// Builds with exceptions (the default) throw the Error. Builds without them
// (-fno-exceptions, as --config=mobile builds the lite runtime) cannot unwind: raise()
// hands the finished Error to the fatal handler (set_fatal_error_handler; by default it
// prints "error: <what>" to stderr), then ends the process with exit status 1. The
// message is the same either way, because the context comes from scopes, not from
// catch blocks. Nothing in the runtime aborts on user input; internal invariants also
// raise.
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#if defined(__GNUC__) || defined(__clang__)
#define SOPS_LIKELY(x) (__builtin_expect(static_cast<bool>(x), 1))
#define SOPS_UNLIKELY(x) (__builtin_expect(static_cast<bool>(x), 0))
#else
#define SOPS_LIKELY(x) (x)
#define SOPS_UNLIKELY(x) (x)
#endif

// 1 where the code is compiled with C++ exceptions, 0 under -fno-exceptions.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define SOPS_EXCEPTIONS 1
#else
#define SOPS_EXCEPTIONS 0
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
  // raised the error, wins). Returns *this.
  Error& with_operator(std::string_view op);
  // Sets the argument name unless one is set already.
  Error& with_argument(std::string_view argument);
  // Puts `prefix` before the whole of what() (operator and argument included), which
  // becomes the message; operator and argument are then unknown again.
  Error& with_prefix(std::string_view prefix);

 private:
  void refresh_what();

  std::string message_;
  std::string argument_;
  std::string op_;
  std::string what_;
};

// One open scope of error context (see the top of this file): a node of a list that
// lives on the stack of the code that opened it, one list per thread.
class ErrorScope {
 public:
  enum class Kind : uint8_t { Operator, Argument, Prefix };
  using Describe = void (*)(const void* data, std::string& out);

  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;
  ~ErrorScope() { top() = outer_; }

  // Applies this scope and the ones around it to `error`, innermost first.
  void apply(Error& error) const;

  // The innermost scope open on this thread (null: none). A thread that works for
  // another (parallel_for's workers) takes that thread's innermost scope as its own.
  static const ErrorScope*& top() noexcept {
    static thread_local const ErrorScope* innermost = nullptr;
    return innermost;
  }

 protected:
  ErrorScope(Kind kind, std::string_view text, Describe describe, const void* data) noexcept
      : kind_(kind), text_(text), describe_(describe), data_(data), outer_(top()) {
    top() = this;
  }

 private:
  Kind kind_;
  std::string_view text_;  // Operator, Argument: the name
  Describe describe_;      // Prefix: writes the prefix
  const void* data_;
  const ErrorScope* outer_;
};

// The operator running ("add.out"); the name must outlive the scope.
class OperatorScope : public ErrorScope {
 public:
  explicit OperatorScope(std::string_view op) noexcept
      : ErrorScope(Kind::Operator, op, nullptr, nullptr) {}
};

// The argument being checked ("other"); the name must outlive the scope.
class ArgumentScope : public ErrorScope {
 public:
  explicit ArgumentScope(std::string_view argument) noexcept
      : ErrorScope(Kind::Argument, argument, nullptr, nullptr) {}
};

// A prefix written only if an error is raised: describe(data, out) appends it to out.
class PrefixScope : public ErrorScope {
 public:
  PrefixScope(Describe describe, const void* data) noexcept
      : ErrorScope(Kind::Prefix, {}, describe, data) {}
};

namespace detail {
[[noreturn]] void fail(const Error& error);
}  // namespace detail

// Raises `error` (an Error or a class derived from it) with the open scopes applied:
// throws it, or, built without exceptions, ends the process through the fatal handler.
template <typename E>
[[noreturn]] void raise(E error) {
  if (const ErrorScope* scope = ErrorScope::top()) scope->apply(error);
#if SOPS_EXCEPTIONS
  throw error;
#else
  detail::fail(error);
#endif
}

// Built without exceptions: what happens to a raised error before the process ends
// with exit status 1 (a command line prints its name before the message). Returns the
// previous handler. Built with exceptions it is never called.
using FatalErrorHandler = void (*)(const Error& error);
FatalErrorHandler set_fatal_error_handler(FatalErrorHandler handler) noexcept;

// Runs f(). Built with exceptions, a standard exception escaping it is raised again as
// a sops::Error in the scopes open here (std::bad_alloc as "out of memory"). Built
// without, there are none to catch: running out of memory is the new-handler's to
// report (the lite command line raises an Error from it).
template <typename F>
void raise_standard_exceptions(F&& f) {
#if SOPS_EXCEPTIONS
  try {
    std::forward<F>(f)();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    raise(Error("out of memory"));
  } catch (const std::exception& e) {
    raise(Error(e.what()));
  }
#else
  std::forward<F>(f)();
#endif
}

// Runs f() inside an OperatorScope for `op`.
template <typename F>
decltype(auto) call_with_operator(std::string_view op, F&& f) {
  const OperatorScope scope(op);
  return std::forward<F>(f)();
}

namespace detail {

// One part of a message, held by pointer or value. A message is built by one
// out-of-line function, join(), from an array of parts: a call site stores each part
// and makes one call, where streaming the parts in place cost every site a stream's
// construction, str() and destruction, and every list of argument types an instance
// (--config=mobile's lite runtime: 5 KB). join() streams each part as std::ostream
// does (numbers, strings); other types go through their operator<<.
class MessagePart {
 public:
  MessagePart(const char* s) noexcept : kind_(Kind::Chars), chars_(s) {}
  MessagePart(const std::string& s) noexcept : kind_(Kind::View), view_(s) {}
  MessagePart(std::string_view s) noexcept : kind_(Kind::View), view_(s) {}
  template <typename T,
            typename = std::enable_if_t<!std::is_convertible_v<const T&, std::string_view>>>
  MessagePart(const T& value) noexcept {
    if constexpr (std::is_same_v<T, char>) {
      kind_ = Kind::Char;
      char_ = value;
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) > 1) {
      if constexpr (std::is_signed_v<T>) {
        kind_ = Kind::Signed;
        signed_ = value;
      } else {
        kind_ = Kind::Unsigned;
        unsigned_ = value;
      }
    } else if constexpr (std::is_floating_point_v<T> && sizeof(T) <= sizeof(double)) {
      kind_ = Kind::Double;
      double_ = value;
    } else {
      kind_ = Kind::Other;
      other_ = {&value, [](std::ostream& os, const void* v) { os << *static_cast<const T*>(v); }};
    }
  }

  // Streams this part to `os`.
  void stream(std::ostream& os) const;

 private:
  enum class Kind : uint8_t { Chars, View, Char, Signed, Unsigned, Double, Other };
  struct Other {
    const void* value;
    void (*stream)(std::ostream& os, const void* value);
  };
  Kind kind_;
  union {
    const char* chars_;
    std::string_view view_;
    char char_;
    long long signed_;
    unsigned long long unsigned_;
    double double_;
    Other other_;
  };
};

// The parts streamed one after the other.
std::string join(const MessagePart* parts, std::size_t n);

inline std::string str() { return {}; }
inline std::string str(const char* s) { return s; }
inline std::string str(std::string s) { return s; }
template <typename... Args>
std::string str(const Args&... args) {
  const MessagePart parts[] = {args...};
  return join(parts, sizeof...(Args));
}

[[noreturn]] void raise_check_failure(const char* condition, std::string message,
                                      std::string_view argument);
[[noreturn]] void raise_internal_failure(const char* file, int line, const char* condition,
                                         std::string message);

}  // namespace detail
}  // namespace sops

// The condition's text where a check's message is made from it (no parts given), else
// "": a message's check keeps no copy of its condition in the binary (--config=mobile's
// lite runtime: about 3 KB of text). `sizeof` reads the parts' spelling, not their values.
#define SOPS_DETAIL_CONDITION_TEXT(cond, ...) (sizeof(#__VA_ARGS__) == 1 ? #cond : "")

// SOPS_CHECK(cond, parts...): raises sops::Error with the parts streamed together
// (or "expected <cond> to be true" when there are none) unless cond holds.
#define SOPS_CHECK(cond, ...)                                                            \
  do {                                                                                   \
    if (SOPS_UNLIKELY(!(cond))) {                                                        \
      ::sops::detail::raise_check_failure(SOPS_DETAIL_CONDITION_TEXT(cond, __VA_ARGS__), \
                                          ::sops::detail::str(__VA_ARGS__), {});         \
    }                                                                                    \
  } while (false)

// SOPS_CHECK_ARG(cond, "argname", parts...): as SOPS_CHECK, naming the argument.
#define SOPS_CHECK_ARG(cond, argument, ...)                                              \
  do {                                                                                   \
    if (SOPS_UNLIKELY(!(cond))) {                                                        \
      ::sops::detail::raise_check_failure(SOPS_DETAIL_CONDITION_TEXT(cond, __VA_ARGS__), \
                                          ::sops::detail::str(__VA_ARGS__), (argument)); \
    }                                                                                    \
  } while (false)

// SOPS_INTERNAL_ASSERT(cond, parts...): a broken invariant of the runtime itself (a
// bug, not a user mistake). Still raises sops::Error; the message says so and names
// the source location.
#define SOPS_INTERNAL_ASSERT(cond, ...)                                         \
  do {                                                                          \
    if (SOPS_UNLIKELY(!(cond))) {                                               \
      ::sops::detail::raise_internal_failure(__FILE__, __LINE__, #cond,         \
                                             ::sops::detail::str(__VA_ARGS__)); \
    }                                                                           \
  } while (false)
