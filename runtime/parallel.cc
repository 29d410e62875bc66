#include "runtime/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/error.h"

namespace sops {
namespace {

thread_local bool t_in_parallel_region = false;

int default_num_threads() {
  if (const char* env = std::getenv("SOPS_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return n;
  }
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

std::atomic<int>& num_threads_setting() {
  static std::atomic<int> n{default_num_threads()};
  return n;
}

// One parallel_for in flight: its chunks are claimed by index.
struct Job {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t chunk = 1;
  int64_t nchunks = 0;
  FunctionRef<void(int64_t, int64_t)>* f = nullptr;
  std::atomic<int64_t> next{0};
  // Written under the pool's mutex (read without it while spinning): chunks finished,
  // and workers holding this job.
  std::atomic<int64_t> done{0};
  std::atomic<int> users{0};

  bool finished() const { return done.load() == nchunks && users.load() == 0; }
  // The caller's error scopes (runtime/error.h): an error a worker raises names the
  // operator the caller runs.
  const ErrorScope* scope = ErrorScope::top();
#if SOPS_EXCEPTIONS
  std::mutex error_mutex;
  std::exception_ptr error;
#endif

  // Runs chunks until none is left; returns how many this thread ran.
  int64_t work() {
    const ErrorScope* const own_scope = ErrorScope::top();
    ErrorScope::top() = scope;
    int64_t ran = 0;
    for (int64_t c = next.fetch_add(1); c < nchunks; c = next.fetch_add(1)) {
      const int64_t b = begin + c * chunk;
      const int64_t e = std::min(end, b + chunk);
#if SOPS_EXCEPTIONS
      try {
        (*f)(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
#else
      (*f)(b, e);
#endif
      ++ran;
    }
    ErrorScope::top() = own_scope;
    return ran;
  }
};

// Pauses a spinning thread briefly (and lets a sibling hyperthread run).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// How long a thread spins for the next job (workers) or for the last chunks (the
// caller) before it sleeps. A sleeping thread takes tens to hundreds of microseconds to
// run again on a virtual machine, more than a whole kernel on a large tensor: with
// 0.1 ms of spinning, back-to-back kernels on 2 threads ran no faster than on 1 (bench/
// kernels_bench). libgomp spins for a few milliseconds; we spin for 1 ms, then sleep.
constexpr auto kSpinTime = std::chrono::microseconds(1000);

// Spins until done() or kSpinTime has passed; returns done().
template <typename Done>
bool spin_until(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
}

// Workers spin, then sleep on `wake`, until `generation` moves, then help with `job`.
// The calling thread of parallel_run is the pool's extra member: a pool of n threads
// has n - 1 workers.
class ThreadPool {
 public:
  static ThreadPool& get() {
    static ThreadPool* pool = new ThreadPool();  // never destroyed: workers may outlive exit
    return *pool;
  }

  void run(Job& job, int threads) {
    std::lock_guard<std::mutex> one_job(run_mutex_);
    resize(threads - 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    t_in_parallel_region = true;
    const int64_t ran = job.work();
    t_in_parallel_region = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job.done += ran;
    }
    spin_until([&] { return job.finished(); });
    std::unique_lock<std::mutex> lock(mutex_);
    // No worker may still hold the job when it goes out of scope.
    finished_.wait(lock, [&] { return job.finished(); });
    job_ = nullptr;
  }

 private:
  void resize(int workers) {
    if (static_cast<int>(threads_.size()) == workers) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    stop_ = false;
    // A worker starts from the generation before the job run() is about to publish: one
    // that read it itself, once running, could read it after and miss that job.
    const uint64_t seen = generation_.load();
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this, seen] { loop(seen); });
  }

  void loop(uint64_t seen) {
    t_in_parallel_region = true;
    while (true) {
      spin_until([&] { return generation_.load() != seen; });
      Job* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_.load() != seen; });
        if (stop_) return;
        seen = generation_.load();
        job = job_;
        if (job == nullptr) continue;
        ++job->users;
      }
      const int64_t ran = job->work();
      std::lock_guard<std::mutex> lock(mutex_);
      job->done += ran;
      if (--job->users == 0 && job->done == job->nchunks) finished_.notify_all();
    }
  }

  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_;
  std::vector<std::thread> threads_;
  Job* job_ = nullptr;                   // guarded by mutex_
  std::atomic<uint64_t> generation_{0};  // written under mutex_
  bool stop_ = false;                    // guarded by mutex_
};

}  // namespace

int get_num_threads() { return num_threads_setting().load(std::memory_order_relaxed); }

void set_num_threads(int n) {
  SOPS_CHECK(n >= 1, "set_num_threads: expected a positive number of threads, got ", n);
  num_threads_setting().store(n, std::memory_order_relaxed);
}

bool in_parallel_region() { return t_in_parallel_region; }

namespace detail {

void parallel_run(int64_t begin, int64_t end, int64_t grain_size,
                  FunctionRef<void(int64_t, int64_t)> f) {
  const int threads = get_num_threads();
  const int64_t range = end - begin;
  const int64_t grain = std::max<int64_t>(grain_size, 1);
  // Every chunk at least `grain` long (the last one takes the remainder).
  int64_t nchunks = std::max<int64_t>(1, std::min<int64_t>(threads, range / grain));
  const int64_t chunk = (range + nchunks - 1) / nchunks;
  nchunks = (range + chunk - 1) / chunk;
  // One chunk (a short range, one thread), or a call from inside a chunk (nested
  // parallelism): on this thread.
  if (nchunks <= 1 || t_in_parallel_region) {
    f(begin, end);
    return;
  }
  Job job;
  job.nchunks = nchunks;
  job.chunk = chunk;
  job.begin = begin;
  job.end = end;
  job.f = &f;
  ThreadPool::get().run(job, threads);
#if SOPS_EXCEPTIONS
  if (job.error) std::rethrow_exception(job.error);
#endif
}

}  // namespace detail
}  // namespace sops
