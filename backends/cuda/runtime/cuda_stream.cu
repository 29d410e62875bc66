#include "backends/cuda/runtime/cuda_stream.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/runtime/cuda_allocator.h"
#include "backends/cuda/runtime/cuda_check.h"
#include "runtime/error.h"
#include "runtime/tensor.h"

namespace sops::cuda {

namespace {

// Streams per device in the pool (PyTorch has 32; a handful covers the overlap one
// process can use, and each stream costs device resources).
constexpr int kPoolSize = 8;

int current_device() {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

int device_or_current(int device) {
  if (device >= 0) return device;
  return current_device();
}

int checked_device(int device) {
  const int resolved = device_or_current(device);
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (resolved >= count) {
    raise(Error(detail::str("cuda:", resolved, " does not exist: this process sees ", count,
                            " CUDA device(s)")));
  }
  return resolved;
}

// Makes `device` current for a scope (the streams and events below belong to a device).
// Not sops::DeviceGuard: streams work before register_cuda_backend() installs its guard.
// Calls cudaSetDevice only where the device changes (copy_bytes syncs through here); its
// scopes below make runtime calls that switch no device.
class SetDevice {
 public:
  explicit SetDevice(int device) : previous_(current_device()), switched_(device != previous_) {
    if (switched_) check(cudaSetDevice(device), "cudaSetDevice");
  }
  ~SetDevice() {
    if (switched_) (void)cudaSetDevice(previous_);
  }
  SetDevice(const SetDevice&) = delete;
  SetDevice& operator=(const SetDevice&) = delete;

 private:
  int previous_;
  bool switched_;
};

struct DevicePool {
  std::once_flag created;
  std::array<cudaStream_t, kPoolSize> streams{};
  std::atomic<unsigned> next{0};
};

DevicePool& pool_of(int device) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<DevicePool>>* pools =
      new std::vector<std::unique_ptr<DevicePool>>();  // lives as long as its streams
  std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<std::size_t>(device) >= pools->size()) {
    pools->resize(static_cast<std::size_t>(device) + 1);
  }
  auto& pool = (*pools)[static_cast<std::size_t>(device)];
  if (!pool) pool = std::make_unique<DevicePool>();
  return *pool;
}

// The calling thread's current stream per device; nullptr is the default stream.
std::vector<cudaStream_t>& current_streams() {
  thread_local std::vector<cudaStream_t> streams;
  return streams;
}

}  // namespace

Stream Stream::default_stream(int device) { return Stream(nullptr, checked_device(device)); }

Stream Stream::from_pool(int device) {
  const int d = checked_device(device);
  DevicePool& pool = pool_of(d);
  std::call_once(pool.created, [&] {
    const SetDevice on(d);
    for (cudaStream_t& s : pool.streams) {
      check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    }
  });
  return Stream(pool.streams[pool.next.fetch_add(1) % kPoolSize], d);
}

void Stream::synchronize() const {
  const SetDevice on(device_);
  check(cudaStreamSynchronize(handle_), "cudaStreamSynchronize");
}

bool Stream::query() const {
  const SetDevice on(device_);
  const cudaError_t e = cudaStreamQuery(handle_);
  if (e == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  check(e, "cudaStreamQuery");
  return true;
}

void Stream::wait(const Event& event) const {
  const SetDevice on(device_);
  check(cudaStreamWaitEvent(handle_, event.handle(), 0), "cudaStreamWaitEvent");
}

Stream current_stream(int device) {
  const int d = device_or_current(device);
  const auto& streams = current_streams();
  const auto i = static_cast<std::size_t>(d);
  return Stream(i < streams.size() ? streams[i] : nullptr, d);
}

void set_current_stream(const Stream& stream) {
  auto& streams = current_streams();
  const auto i = static_cast<std::size_t>(stream.device());
  if (i >= streams.size()) streams.resize(i + 1, nullptr);
  streams[i] = stream.handle();
}

StreamGuard::StreamGuard(const Stream& stream)
    : previous_device_(current_device()), previous_stream_(current_stream(stream.device())) {
  if (stream.device() != previous_device_) check(cudaSetDevice(stream.device()), "cudaSetDevice");
  set_current_stream(stream);
}

StreamGuard::~StreamGuard() {
  set_current_stream(previous_stream_);
  (void)cudaSetDevice(previous_device_);  // also undoes a switch made inside the scope
}

Event::Event() : device_(current_device()) { check(cudaEventCreate(&handle_), "cudaEventCreate"); }

Event::~Event() {
  if (handle_ != nullptr) (void)cudaEventDestroy(handle_);
}

void Event::record(const Stream& stream) {
  if (stream.device() != device_) {
    raise(Error(detail::str("an event of cuda:", device_,
                            " cannot be recorded on a stream of cuda:", stream.device(),
                            " (create the event with that device current)")));
  }
  const SetDevice on(device_);
  check(cudaEventRecord(handle_, stream.handle()), "cudaEventRecord");
}

void Event::record() { record(current_stream(device_)); }

void Event::synchronize() const { check(cudaEventSynchronize(handle_), "cudaEventSynchronize"); }

bool Event::query() const {
  const cudaError_t e = cudaEventQuery(handle_);
  if (e == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  check(e, "cudaEventQuery");
  return true;
}

float Event::elapsed_ms_since(const Event& start) const {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start.handle_, handle_), "cudaEventElapsedTime");
  return ms;
}

void record_stream(const Tensor& tensor, const Stream& stream) {
  SOPS_CHECK(tensor.defined() && tensor.is_cuda(), "record_stream() takes a CUDA tensor, not ",
             tensor.defined() ? detail::str(tensor.device()) : std::string("an undefined tensor"));
  caching_allocator().record_stream(tensor.storage().impl()->data_ptr(), stream);
}

}  // namespace sops::cuda
