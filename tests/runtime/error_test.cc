// sops::Error: one exception type whose message names the operator and argument, and
// the scopes that give it that context.
#include "runtime/error.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "runtime/parallel.h"
#include "tests/runtime/test_util.h"

namespace {

TEST(Error, WhatJoinsOperatorArgumentAndMessage) {
  sops::Error e("expected dtype float32 but got int64", "out", "add.out");
  EXPECT_STREQ(e.what(), "add.out: argument 'out': expected dtype float32 but got int64");
  EXPECT_EQ(e.op(), "add.out");
  EXPECT_EQ(e.argument(), "out");
  EXPECT_EQ(e.message(), "expected dtype float32 but got int64");
}

TEST(Error, OmitsEmptyParts) {
  EXPECT_STREQ(sops::Error("boom").what(), "boom");
  EXPECT_STREQ(sops::Error("boom", "self").what(), "argument 'self': boom");
  EXPECT_STREQ(sops::Error("boom", "", "relu").what(), "relu: boom");
}

TEST(Error, CheckStreamsMessageParts) {
  try {
    const int rank = 3;
    SOPS_CHECK(rank == 2, "expected a 2-d tensor, got ", rank, "-d");
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "expected a 2-d tensor, got 3-d");
    EXPECT_EQ(e.argument(), "");
  }
}

TEST(Error, CheckWithoutMessageNamesTheCondition) {
  try {
    const int x = 1;
    SOPS_CHECK(x == 2);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "expected x == 2 to be true, but got false");
  }
}

TEST(Error, CheckWhosePartsMakeNoTextStillSaysACheckFailed) {
  try {
    const std::string detail;
    SOPS_CHECK_ARG(detail.size() == 1, "self", detail);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "argument 'self': a check failed");
  }
}

TEST(Error, CheckArgNamesTheArgument) {
  EXPECT_NO_THROW(SOPS_CHECK_ARG(true, "self", "never"));
  try {
    SOPS_CHECK_ARG(false, "weight", "must be 2-d");
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "weight");
    EXPECT_STREQ(e.what(), "argument 'weight': must be 2-d");
  }
}

TEST(Error, OperatorIsAddedOnTheWayOutAndInnermostWins) {
  try {
    sops::call_with_operator("add.Tensor", [] {
      sops::call_with_operator("add.out", [] { SOPS_CHECK_ARG(false, "out", "bad"); });
    });
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add.out");
    EXPECT_STREQ(e.what(), "add.out: argument 'out': bad");
  }
}

TEST(Error, CatchAndRethrowKeepsTheObject) {
  try {
    try {
      throw sops::Error("bad");
    } catch (sops::Error& e) {
      e.with_operator("mul.Tensor").with_argument("other");
      throw;
    }
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "mul.Tensor: argument 'other': bad");
  }
}

void describe_node(const void* data, std::string& out) {
  out += "model.sopsm: node '";
  out += *static_cast<const std::string*>(data);
  out += "': ";
}

TEST(Error, ScopesApplyInnermostFirstAndAPrefixWrapsWhatIsInside) {
  const std::string node = "add_1";
  const std::string message = sops::testing::error_message([&] {
    const sops::PrefixScope where(&describe_node, &node);
    const sops::OperatorScope outer("add.Tensor");
    const sops::OperatorScope inner("add.out");
    const sops::ArgumentScope argument("other");
    SOPS_CHECK(false, "bad");
  });
  EXPECT_EQ(message, "model.sopsm: node 'add_1': add.out: argument 'other': bad");
  // A closed scope names nothing.
  EXPECT_EQ(sops::testing::error_message([] { SOPS_CHECK(false, "bad"); }), "bad");
  EXPECT_EQ(sops::ErrorScope::top(), nullptr);
}

TEST(Error, ACheckFailingOnAWorkerThreadNamesTheCallersOperator) {
  const int threads = sops::get_num_threads();
  sops::set_num_threads(2);
  sops::parallel_for(0, 2, 1, [](int64_t, int64_t) {});  // starts the pool's worker
  // Two chunks: the calling thread leaves the failing one to the worker, waiting (at
  // most 5 s) until the worker has taken it.
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> worker_ran{false};
  const std::string message = sops::testing::error_message([&] {
    const sops::OperatorScope scope("sum.dim_IntList");
    sops::parallel_for(0, 2, 1, [&](int64_t begin, int64_t) {
      if (std::this_thread::get_id() == caller) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!worker_ran && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::yield();
        }
        return;
      }
      worker_ran = true;
      SOPS_CHECK_ARG(false, "dim", "failed at ", begin);
    });
  });
  sops::set_num_threads(threads);
  ASSERT_TRUE(worker_ran) << "no worker thread ran a chunk";
  EXPECT_EQ(message.rfind("sum.dim_IntList: argument 'dim': failed at ", 0), 0u) << message;
}

TEST(Error, CallWithOperatorReturnsTheValue) {
  EXPECT_EQ(sops::call_with_operator("f", [] { return 42; }), 42);
}

TEST(Error, InternalAssertThrowsAndSaysItIsABug) {
  try {
    SOPS_INTERNAL_ASSERT(1 + 1 == 3, "math");
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_NE(std::string(e.what()).find("internal error"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("math"), std::string::npos);
  }
}

}  // namespace
