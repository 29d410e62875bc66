#include "runtime/error.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <thread>

namespace sops {

Error::Error(std::string message, std::string argument, std::string op)
    : message_(std::move(message)), argument_(std::move(argument)), op_(std::move(op)) {
  refresh_what();
}

Error& Error::with_operator(std::string_view op) {
  if (op_.empty() && !op.empty()) {
    op_ = std::string(op);
    refresh_what();
  }
  return *this;
}

Error& Error::with_argument(std::string_view argument) {
  if (argument_.empty() && !argument.empty()) {
    argument_ = std::string(argument);
    refresh_what();
  }
  return *this;
}

Error& Error::with_prefix(std::string_view prefix) {
  message_ = std::string(prefix) + what_;
  argument_.clear();
  op_.clear();
  refresh_what();
  return *this;
}

void Error::refresh_what() {
  what_.clear();
  if (!op_.empty()) {
    what_ += op_;
    what_ += ": ";
  }
  if (!argument_.empty()) {
    what_ += "argument '";
    what_ += argument_;
    what_ += "': ";
  }
  what_ += message_;
}

void ErrorScope::apply(Error& error) const {
  for (const ErrorScope* s = this; s != nullptr; s = s->outer_) {
    switch (s->kind_) {
      case Kind::Operator:
        error.with_operator(s->text_);
        break;
      case Kind::Argument:
        error.with_argument(s->text_);
        break;
      case Kind::Prefix: {
        std::string prefix;
        s->describe_(s->data_, prefix);
        error.with_prefix(prefix);
        break;
      }
    }
  }
}

namespace {

void print_error(const Error& error) {
  std::fputs("error: ", stderr);
  std::fputs(error.what(), stderr);
  std::fputc('\n', stderr);
}

FatalErrorHandler& fatal_error_handler() {
  static FatalErrorHandler handler = &print_error;
  return handler;
}

}  // namespace

FatalErrorHandler set_fatal_error_handler(FatalErrorHandler handler) noexcept {
  FatalErrorHandler previous = fatal_error_handler();
  fatal_error_handler() = handler != nullptr ? handler : &print_error;
  return previous;
}

namespace detail {

void MessagePart::stream(std::ostream& os) const {
  switch (kind_) {
    case Kind::Chars:
      os << chars_;
      break;
    case Kind::View:
      os << view_;
      break;
    case Kind::Char:
      os << char_;
      break;
    case Kind::Signed:
      os << signed_;
      break;
    case Kind::Unsigned:
      os << unsigned_;
      break;
    case Kind::Double:
      os << double_;
      break;
    case Kind::Other:
      other_.stream(os, other_.value);
      break;
  }
}

std::string join(const MessagePart* parts, std::size_t n) {
  std::ostringstream os;
  for (std::size_t i = 0; i < n; ++i) parts[i].stream(os);
  return os.str();
}

void fail(const Error& error) {
  // One message, from the first thread that fails (parallel_for's workers may fail at
  // once): the others wait here for it to end the process.
  static std::atomic_flag failing = ATOMIC_FLAG_INIT;
  if (failing.test_and_set()) {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  fatal_error_handler()(error);
  std::fflush(stdout);
  std::fflush(stderr);
  // _Exit, not exit: other threads may be running kernels, and static destructors
  // must not run under them.
  std::_Exit(1);
}

void raise_check_failure(const char* condition, std::string message, std::string_view argument) {
  if (message.empty()) {  // (a condition is "" where the check's parts made an empty message)
    message = *condition != '\0'
                  ? std::string("expected ") + condition + " to be true, but got false"
                  : std::string("a check failed");
  }
  raise(Error(std::move(message), std::string(argument)));
}

void raise_internal_failure(const char* file, int line, const char* condition,
                            std::string message) {
  std::string text = std::string("internal error (a bug in sops, please report it): ") + condition +
                     " failed at " + file + ":" + std::to_string(line);
  if (!message.empty()) {
    text += ": ";
    text += message;
  }
  raise(Error(std::move(text)));
}

}  // namespace detail
}  // namespace sops
