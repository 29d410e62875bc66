// CUDA streams and events: where the backend's kernels and copies are queued.
//
// Every kernel and copy of the CUDA backend is queued on the *current stream* of the
// device it runs on. Each thread starts on each device's default stream; a StreamGuard
// switches to another stream (and its device) for a scope:
//
//   sops::cuda::Stream side = sops::cuda::Stream::from_pool();
//   {
//     sops::cuda::StreamGuard on_side(side);
//     y = sops::aten::mm(a, b);            // queued on `side`
//   }
//   side.synchronize();                    // or: an Event recorded on `side`, waited on
//
// Streams from the pool are non-blocking (they do not wait for the default stream, as
// PyTorch's pool streams): order work across streams with events. The allocator keeps
// freed memory per stream, so a block is reused only by work queued after its last use on
// the same stream; a tensor used on another stream than the one it was allocated on must
// be recorded there (record_stream), as in PyTorch.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace sops {
class Tensor;
}

namespace sops::cuda {

class Event;

class Stream {
 public:
  // The default stream of `device` (-1: the current device).
  static Stream default_stream(int device = -1);
  // One of a fixed pool of non-blocking streams of `device` (-1: the current device),
  // handed out round-robin; the pool lives as long as the process.
  static Stream from_pool(int device = -1);

  cudaStream_t handle() const { return handle_; }
  int device() const { return device_; }
  bool is_default() const { return handle_ == nullptr; }

  // Blocks the calling thread until everything queued on the stream has finished.
  void synchronize() const;
  // Whether everything queued on the stream has finished (does not block).
  bool query() const;
  // Work queued on this stream after this call waits for `event` (does not block the host).
  void wait(const Event& event) const;

  friend bool operator==(const Stream& a, const Stream& b) {
    return a.handle_ == b.handle_ && a.device_ == b.device_;
  }
  friend bool operator!=(const Stream& a, const Stream& b) { return !(a == b); }

 private:
  friend Stream current_stream(int device);
  Stream(cudaStream_t handle, int device) : handle_(handle), device_(device) {}
  cudaStream_t handle_;
  int device_;
};

// The calling thread's current stream on `device` (-1: the current device).
Stream current_stream(int device = -1);
// Makes `stream` the calling thread's current stream on its device.
void set_current_stream(const Stream& stream);

// For a scope: makes the stream's device current and the stream current on it; restores
// both at the end.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  int previous_device_;
  Stream previous_stream_;  // of the stream's device
};

// A point in a stream's work: for ordering streams and for timing.
class Event {
 public:
  Event();  // on the current device, with timing
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Marks the point after everything queued so far on `stream` (default: current).
  void record(const Stream& stream);
  void record();
  // Blocks the calling thread until the recorded point is reached.
  void synchronize() const;
  bool query() const;
  // Milliseconds between `start`'s point and this one (both recorded and reached).
  float elapsed_ms_since(const Event& start) const;
  cudaEvent_t handle() const { return handle_; }

 private:
  cudaEvent_t handle_ = nullptr;
  int device_ = 0;
};

// Tells the allocator that `tensor`'s memory is used by work on `stream`: when the tensor
// is freed, its block is reused only after that work has finished.
void record_stream(const Tensor& tensor, const Stream& stream);

}  // namespace sops::cuda
