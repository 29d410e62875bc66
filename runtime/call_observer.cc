#include "runtime/call_observer.h"

namespace sops {
namespace detail {
std::atomic<CallObserver> g_call_observer{nullptr};
}  // namespace detail

CallObserver set_call_observer(CallObserver observer) {
  return detail::g_call_observer.exchange(observer);
}

}  // namespace sops
