#include "runtime/dispatcher.h"

#include <algorithm>

namespace sops {
namespace {

std::string name_of_schema(std::string_view schema) {
  const auto paren = schema.find('(');
  SOPS_CHECK(paren != std::string_view::npos && paren > 0, "invalid operator schema '", schema,
             "': expected 'name.overload(args) -> returns'");
  std::string_view name = schema.substr(0, paren);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  return std::string(name);
}

std::string keys_list(const std::array<ErasedKernel, kNumDispatchKeys>& kernels) {
  std::string out;
  for (int i = 0; i < kNumDispatchKeys; ++i) {
    if (kernels[static_cast<std::size_t>(i)] == nullptr) continue;
    if (!out.empty()) out += ", ";
    out += to_string(static_cast<DispatchKey>(i));
  }
  return out.empty() ? "none" : out;
}

}  // namespace

namespace detail {

namespace {
thread_local int t_call_depth = 0;
}  // namespace

ObservedCall::ObservedCall(CallObserver observer, const OperatorEntry& entry) {
  observer(entry.name(), t_call_depth + 1);  // counted only once it has returned
  ++t_call_depth;
}

ObservedCall::~ObservedCall() { --t_call_depth; }

}  // namespace detail

// ---------------------------------------------------------------------------------
// OperatorEntry: the cold paths of a call.

void OperatorEntry::throw_no_kernel(DispatchKey backend) const {
  ::sops::throw_no_kernel(name_, backend, keys_list(kernels_));
}

void OperatorEntry::mark_clash(const KernelLibrary* first, const KernelLibrary* second,
                               std::string what) {
  if (!clash_.empty()) return;  // the first reason is the one to fix
  if (first != nullptr && second != nullptr) {
    clash_ = duplicate_operator_message(
        name_, *first, *second,
        "is it linked into the program twice, e.g. as a static and a shared library?");
  } else {
    clash_ = std::move(what);
  }
}

void OperatorEntry::throw_mixed_devices(uint8_t device_mask) const {
  ::sops::throw_mixed_devices(name_, device_mask);  // static_dispatch.cc: one message for both
}

// ---------------------------------------------------------------------------------
// OperatorHandle

bool OperatorHandle::has_kernel(DispatchKey key) const {
  std::lock_guard<std::mutex> lock(Dispatcher::singleton().mutex_);
  return entry_->kernels_[static_cast<std::size_t>(key)] != nullptr;
}

std::vector<DispatchKey> OperatorHandle::registered_keys() const {
  std::lock_guard<std::mutex> lock(Dispatcher::singleton().mutex_);
  std::vector<DispatchKey> keys;
  for (int i = 0; i < kNumDispatchKeys; ++i) {
    if (entry_->kernels_[static_cast<std::size_t>(i)] != nullptr) {
      keys.push_back(static_cast<DispatchKey>(i));
    }
  }
  return keys;
}

std::optional<DispatchKey> OperatorHandle::resolved_key(DispatchKey backend) const {
  SOPS_CHECK(is_backend_key(backend), "resolved_key: ", backend, " is not a backend key");
  std::lock_guard<std::mutex> lock(Dispatcher::singleton().mutex_);
  return entry_->resolved_[static_cast<std::size_t>(backend)];
}

void OperatorHandle::check_signature(std::string_view requested) const {
  std::lock_guard<std::mutex> lock(Dispatcher::singleton().mutex_);
  if (entry_->signature_.empty()) {
    entry_->signature_ = requested;  // kernels registered later must match it
    return;
  }
  if (entry_->signature_ == requested) return;
  raise(Error(detail::str("typed<", requested, ">() does not match the kernels' signature ",
                          entry_->signature_),
              {}, entry_->name_));
}

// ---------------------------------------------------------------------------------
// Dispatcher

Dispatcher& Dispatcher::singleton() {
  static Dispatcher dispatcher;
  return dispatcher;
}

OperatorHandle Dispatcher::find(std::string_view name) {
  if (auto handle = try_find(name)) return *handle;
  raise(
      Error(detail::str("unknown operator '", name,
                        "': nothing is registered under that name (the name includes the overload, "
                        "e.g. \"add.Tensor\")")));
}

std::optional<OperatorHandle> Dispatcher::try_find(std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = operators_.find(std::string(name));
  if (it == operators_.end()) return std::nullopt;
  const OperatorEntry& e = *it->second;
  if (SOPS_UNLIKELY(!e.clash_.empty())) raise(Error(e.clash_, {}, e.name_));
  const bool any_kernel = std::any_of(e.kernels_.begin(), e.kernels_.end(),
                                      [](ErasedKernel k) { return k != nullptr; });
  if (e.schema_.empty() && !any_kernel) return std::nullopt;
  return OperatorHandle(it->second.get());
}

std::vector<std::string> Dispatcher::operator_names() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [name, entry] : operators_) {
    const bool any_kernel = std::any_of(entry->kernels_.begin(), entry->kernels_.end(),
                                        [](ErasedKernel k) { return k != nullptr; });
    if (!entry->schema_.empty() || any_kernel) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

OperatorEntry& Dispatcher::entry_locked(std::string_view name) {
  auto it = operators_.find(std::string(name));
  if (it == operators_.end()) {
    it = operators_.emplace(std::string(name), std::make_unique<OperatorEntry>(std::string(name)))
             .first;
  }
  return *it->second;
}

void Dispatcher::resolve_locked(OperatorEntry& entry) {
  for (int b = 0; b < kNumBackendKeys; ++b) {
    const auto backend = static_cast<DispatchKey>(b);
    std::optional<DispatchKey> chosen;
    auto consider = [&](DispatchKey key) {
      if (chosen.has_value()) return;
      const auto k = static_cast<std::size_t>(key);
      if (entry.kernels_[k] == nullptr) return;
      if (entry.fallthrough_[k][static_cast<std::size_t>(b)] ||
          global_fallthrough_[k][static_cast<std::size_t>(b)]) {
        return;
      }
      chosen = key;
    };
    consider(backend);
    for (const DispatchKey key : kFallbackKeys) consider(key);
    entry.resolved_[static_cast<std::size_t>(b)] = chosen;
    entry.table_[static_cast<std::size_t>(b)].store(
        chosen ? entry.kernels_[static_cast<std::size_t>(*chosen)] : nullptr,
        std::memory_order_release);
  }
}

bool Dispatcher::define(std::string_view schema, const KernelLibrary* library) {
  const std::string name = name_of_schema(schema);
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = entry_locked(name);
  if (!entry.schema_.empty()) {
    entry.mark_clash(entry.definer_, library,
                     "is defined twice: first as '" + entry.schema_ + "', then as '" +
                         std::string(schema) + "'");
    return false;
  }
  entry.schema_ = std::string(schema);
  entry.definer_ = library;
  return true;
}

void Dispatcher::undefine(std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = entry_locked(name);
  entry.schema_.clear();
  entry.definer_ = nullptr;
}

bool Dispatcher::register_kernel(std::string_view name, DispatchKey key, ErasedKernel kernel,
                                 std::string_view signature, const KernelLibrary* library) {
  SOPS_CHECK(kernel != nullptr, "register_kernel(", name, ", ", key, "): null kernel");
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = entry_locked(name);
  const auto k = static_cast<std::size_t>(key);
  if (entry.kernels_[k] != nullptr) {
    entry.mark_clash(
        entry.kernel_libraries_[k], library,
        "a kernel for dispatch key " + std::string(to_string(key)) + " is registered twice");
    return false;
  }
  if (!entry.signature_.empty() && entry.signature_ != signature) {
    // The library the operator's kernels came from: its definer, else any kernel's.
    const auto& libs = entry.kernel_libraries_;
    const auto any = std::find_if(libs.begin(), libs.end(), [](auto* l) { return l != nullptr; });
    entry.mark_clash(
        entry.definer_ != nullptr ? entry.definer_ : (any != libs.end() ? *any : nullptr), library,
        "kernel for " + std::string(to_string(key)) + " has signature " + std::string(signature) +
            ", but the operator's kernels have " + std::string(entry.signature_));
    return false;
  }
  entry.signature_ = signature;
  entry.kernels_[k] = kernel;
  entry.kernel_libraries_[k] = library;
  resolve_locked(entry);
  return true;
}

void Dispatcher::deregister_kernel(std::string_view name, DispatchKey key) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& entry = entry_locked(name);
  entry.kernels_[static_cast<std::size_t>(key)] = nullptr;
  entry.kernel_libraries_[static_cast<std::size_t>(key)] = nullptr;
  resolve_locked(entry);
}

void Dispatcher::set_fallthrough_locked(std::string_view name, DispatchKey key,
                                        std::optional<DispatchKey> backend, bool value) {
  SOPS_CHECK(!backend.has_value() || is_backend_key(*backend), "fallthrough for ", key, ": ",
             *backend, " is not a backend key");
  OperatorEntry& entry = entry_locked(name);
  for (int b = 0; b < kNumBackendKeys; ++b) {
    if (!backend.has_value() || static_cast<int>(*backend) == b) {
      entry.fallthrough_[static_cast<std::size_t>(key)][static_cast<std::size_t>(b)] = value;
    }
  }
  resolve_locked(entry);
}

void Dispatcher::register_fallthrough(std::string_view name, DispatchKey key,
                                      std::optional<DispatchKey> backend) {
  std::lock_guard<std::mutex> lock(mutex_);
  set_fallthrough_locked(name, key, backend, true);
}

void Dispatcher::deregister_fallthrough(std::string_view name, DispatchKey key,
                                        std::optional<DispatchKey> backend) {
  std::lock_guard<std::mutex> lock(mutex_);
  set_fallthrough_locked(name, key, backend, false);
}

void Dispatcher::register_fallthrough(DispatchKey key, DispatchKey backend) {
  SOPS_CHECK(is_backend_key(backend), "fallthrough for ", key, ": ", backend,
             " is not a backend key");
  std::lock_guard<std::mutex> lock(mutex_);
  global_fallthrough_[static_cast<std::size_t>(key)][static_cast<std::size_t>(backend)] = true;
  for (auto& [name, entry] : operators_) resolve_locked(*entry);
}

void Dispatcher::deregister_fallthrough(DispatchKey key, DispatchKey backend) {
  SOPS_CHECK(is_backend_key(backend), "fallthrough for ", key, ": ", backend,
             " is not a backend key");
  std::lock_guard<std::mutex> lock(mutex_);
  global_fallthrough_[static_cast<std::size_t>(key)][static_cast<std::size_t>(backend)] = false;
  for (auto& [name, entry] : operators_) resolve_locked(*entry);
}

// ---------------------------------------------------------------------------------
// Registrars

RegisterOperator::RegisterOperator(std::string_view schema)
    : name_(name_of_schema(schema)), defined_(Dispatcher::singleton().define(schema)) {}

RegisterOperator::RegisterOperator(std::string_view schema, const KernelLibrary& library)
    : name_(name_of_schema(schema)), defined_(Dispatcher::singleton().define(schema, &library)) {}

RegisterOperator::~RegisterOperator() {
  if (defined_) Dispatcher::singleton().undefine(name_);
}

RegisterKernel::RegisterKernel(std::string_view op, DispatchKey key, ErasedKernel kernel,
                               std::string_view signature, const KernelLibrary* library)
    : op_(op),
      key_(key),
      registered_(Dispatcher::singleton().register_kernel(op, key, kernel, signature, library)) {}

RegisterKernel::~RegisterKernel() {
  if (registered_) Dispatcher::singleton().deregister_kernel(op_, key_);
}

RegisterFallthrough::RegisterFallthrough(std::string_view op, DispatchKey key,
                                         std::optional<DispatchKey> backend)
    : op_(op), key_(key), backend_(backend) {
  if (op_ == "*") {
    SOPS_CHECK(backend.has_value(), "a fallthrough for every operator needs a backend");
    Dispatcher::singleton().register_fallthrough(key, *backend);
  } else {
    Dispatcher::singleton().register_fallthrough(op_, key, backend);
  }
}

RegisterFallthrough::~RegisterFallthrough() {
  if (op_ == "*") {
    Dispatcher::singleton().deregister_fallthrough(key_, *backend_);
  } else {
    Dispatcher::singleton().deregister_fallthrough(op_, key_, backend_);
  }
}

}  // namespace sops
