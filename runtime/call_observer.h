// Observing operator calls (what `lite_runtime trace` records), for both ways of
// calling an operator: through the dispatcher (runtime/dispatcher.h) and statically
// dispatched (runtime/static_dispatch.h). While an observer is set, every call reports
// the operator's name ("add.Tensor") and its nesting depth on the calling thread
// (1: called from outside any operator; 2: from inside the kernel of a depth-1 call;
// ...; a kernel's worker threads start again at 1; 0: not known, as statically
// dispatched calls do not count it). Without one, a call costs one relaxed load more.
#pragma once

#include <atomic>
#include <string_view>

namespace sops {

using CallObserver = void (*)(std::string_view op, int depth);
// Sets the process-wide observer (nullptr: none); returns the previous one.
CallObserver set_call_observer(CallObserver observer);

namespace detail {
extern std::atomic<CallObserver> g_call_observer;
}  // namespace detail

}  // namespace sops
