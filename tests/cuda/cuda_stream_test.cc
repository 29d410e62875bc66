// Streams and events of the CUDA backend (backends/cuda/runtime/cuda_stream.h): kernels are
// queued on the current stream, a StreamGuard switches it for a scope, the allocator
// reuses a block only on its own stream and waits for streams a block was recorded on.
//
// To see where work is queued, a test holds a stream with a gate: a host function queued
// on the stream that returns only when the test opens the gate. Work queued behind it
// cannot have run while the gate is shut. Skipped without a GPU.
#include "backends/cuda/runtime/cuda_stream.h"

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "aten/Functions.h"
#include "backends/cuda/runtime/cuda_allocator.h"
#include "backends/cuda/runtime/cuda_backend.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::Tensor;
using sops::TensorOptions;
using sops::cuda::Event;
using sops::cuda::Stream;
using sops::cuda::StreamGuard;

const TensorOptions kFloatOnGpu = TensorOptions(sops::ScalarType::Float).device(sops::kCUDA);

// Holds `stream` until opened (at the latest when destroyed, so a failing test cannot
// leave the stream held).
class Gate {
 public:
  explicit Gate(const Stream& stream) {
    EXPECT_EQ(cudaLaunchHostFunc(stream.handle(), &Gate::wait, this), cudaSuccess);
  }
  ~Gate() { open(); }
  void open() { open_.store(true); }

 private:
  static void CUDART_CB wait(void* gate) {
    while (!static_cast<Gate*>(gate)->open_.load()) std::this_thread::yield();
  }
  std::atomic<bool> open_{false};
};

// Runs f once and waits for the device, before a test shuts a gate: CUDA loads a kernel's
// module at its first launch (lazy loading, the default since CUDA 12), and loading waits
// for the work already queued on the device, a gated stream's too. A first launch behind
// a shut gate then never returns (seen on an H200: the test hung).
template <class F>
void warm_up(F f) {
  f();
  sops::cuda::synchronize();
}

// t's elements, read on the default stream (which does not wait for pool streams).
std::vector<float> read_on_default_stream(const Tensor& t) {
  std::vector<float> host(static_cast<std::size_t>(t.numel()));
  EXPECT_EQ(cudaMemcpy(host.data(), t.data_ptr(), t.nbytes(), cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

class CudaStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!sops::cuda::register_cuda_backend()) GTEST_SKIP() << "no CUDA device";
  }
};

TEST(CudaStreamWithoutADevice, StreamsFailWithTheDriversError) {
  if (sops::cuda::device_count() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  const std::string message = sops::testing::error_message([] { Stream::from_pool(); });
  EXPECT_EQ(message.rfind("cudaGetDevice failed: ", 0), 0u) << message;
}

TEST_F(CudaStreamTest, EachThreadStartsOnTheDefaultStreamAndAGuardSwitchesItForAScope) {
  EXPECT_TRUE(sops::cuda::current_stream().is_default());
  const Stream side = Stream::from_pool();
  EXPECT_FALSE(side.is_default());
  {
    const StreamGuard guard(side);
    EXPECT_EQ(sops::cuda::current_stream(), side);
    std::thread other([] { EXPECT_TRUE(sops::cuda::current_stream().is_default()); });
    other.join();
  }
  EXPECT_TRUE(sops::cuda::current_stream().is_default());
}

TEST_F(CudaStreamTest, KernelsAreQueuedOnTheCurrentStream) {
  const Tensor a = sops::aten::full({1 << 16}, 1.5, sops::ScalarType::Float, std::nullopt,
                                    sops::Device(sops::kCUDA));
  const Tensor b = sops::aten::full({1 << 16}, 2.0, sops::ScalarType::Float, std::nullopt,
                                    sops::Device(sops::kCUDA));
  Tensor out = sops::aten::zeros({1 << 16}, sops::ScalarType::Float, std::nullopt,
                                 sops::Device(sops::kCUDA));
  warm_up([&] {
    Tensor scratch = sops::aten::empty_like(out);
    sops::aten::add_out(scratch, a, b);
  });
  const Stream side = Stream::from_pool();
  Gate gate(side);
  {
    const StreamGuard guard(side);
    sops::aten::add_out(out, a, b);
  }
  EXPECT_FALSE(side.query());  // the add waits behind the gate
  EXPECT_EQ(read_on_default_stream(out).back(), 0.0f);
  gate.open();
  side.synchronize();
  const std::vector<float> values = read_on_default_stream(out);
  EXPECT_EQ(values.front(), 3.5f);
  EXPECT_EQ(values.back(), 3.5f);
}

TEST_F(CudaStreamTest, EventsOrderOneStreamAfterAnother) {
  Tensor x =
      sops::aten::zeros({1024}, sops::ScalarType::Float, std::nullopt, sops::Device(sops::kCUDA));
  warm_up([&] {
    Tensor scratch = sops::aten::empty_like(x);
    sops::aten::fill_(scratch, 7.0);
    sops::aten::mul_out(scratch, x, x);
  });
  const Stream first = Stream::from_pool();
  const Stream second = Stream::from_pool();
  ASSERT_NE(first, second);
  Gate gate(first);
  Event filled;
  {
    const StreamGuard guard(first);
    sops::aten::fill_(x, 7.0);
    filled.record();
  }
  second.wait(filled);
  Tensor y =
      sops::aten::empty({1024}, sops::ScalarType::Float, std::nullopt, sops::Device(sops::kCUDA));
  {
    const StreamGuard guard(second);
    sops::aten::mul_out(y, x, x);
  }
  EXPECT_FALSE(second.query());  // waits for `first`, which waits behind the gate
  gate.open();
  second.synchronize();
  EXPECT_EQ(read_on_default_stream(y).front(), 49.0f);
}

TEST_F(CudaStreamTest, EventsTimeTheWorkBetweenThem) {
  const Tensor a = sops::aten::ones({512, 512}, sops::ScalarType::Float, std::nullopt,
                                    sops::Device(sops::kCUDA));
  Event start, end;
  start.record();
  const Tensor c = sops::aten::mm(a, a);
  end.record();
  end.synchronize();
  EXPECT_TRUE(end.query());
  EXPECT_GT(end.elapsed_ms_since(start), 0.0f);
}

TEST_F(CudaStreamTest, TheAllocatorReusesABlockOnlyOnItsOwnStream) {
  auto& allocator = sops::cuda::caching_allocator();
  allocator.empty_cache();
  {
    const Tensor t = sops::empty({4096}, kFloatOnGpu);
  }  // cached for the default stream
  const auto before = allocator.stats();
  {
    const StreamGuard guard(Stream::from_pool());
    const Tensor t = sops::empty({4096}, kFloatOnGpu);
  }
  EXPECT_EQ(allocator.stats().device_allocations - before.device_allocations, 1u);
  {
    const Tensor t = sops::empty({4096}, kFloatOnGpu);
  }
  EXPECT_EQ(allocator.stats().cache_hits - before.cache_hits, 1u);  // the default stream's block
}

TEST_F(CudaStreamTest, ABlockRecordedOnAnotherStreamWaitsForItBeforeReuse) {
  auto& allocator = sops::cuda::caching_allocator();
  allocator.empty_cache();
  const Stream side = Stream::from_pool();
  Gate gate(side);
  {
    const Tensor t = sops::empty({4096}, kFloatOnGpu);
    sops::cuda::record_stream(t, side);
  }  // freed while `side` may still use it
  const auto before = allocator.stats();
  {
    const Tensor u = sops::empty({4096}, kFloatOnGpu);
  }
  EXPECT_EQ(allocator.stats().cache_hits, before.cache_hits);  // not handed out yet
  gate.open();
  side.synchronize();
  const auto after_wait = allocator.stats();
  {
    const Tensor v = sops::empty({4096}, kFloatOnGpu);  // u's block and, now, t's
    const Tensor w = sops::empty({4096}, kFloatOnGpu);
  }
  EXPECT_EQ(allocator.stats().cache_hits - after_wait.cache_hits, 2u);
  EXPECT_EQ(allocator.stats().device_allocations, after_wait.device_allocations);
}

TEST_F(CudaStreamTest, RecordStreamTakesOnlyCudaTensors) {
  EXPECT_EQ(sops::testing::error_message([] {
              sops::cuda::record_stream(sops::empty({2}, TensorOptions(sops::ScalarType::Float)),
                                        Stream::from_pool());
            }),
            "record_stream() takes a CUDA tensor, not cpu");
}

}  // namespace
