#include "runtime/error.h"

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

namespace detail {

void throw_check_failure(const char* condition, std::string message,
                         std::string_view argument) {
  if (message.empty()) {
    message = std::string("expected ") + condition + " to be true, but got false";
  }
  throw Error(std::move(message), std::string(argument));
}

void throw_internal_failure(const char* file, int line, const char* condition,
                            std::string message) {
  std::string text = std::string("internal error (a bug in sops, please report it): ") +
                     condition + " failed at " + file + ":" + std::to_string(line);
  if (!message.empty()) {
    text += ": ";
    text += message;
  }
  throw Error(std::move(text));
}

}  // namespace detail
}  // namespace sops
