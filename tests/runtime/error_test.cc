// sops::Error: one exception type whose message names the operator and argument.
#include "runtime/error.h"

#include <string>

#include <gtest/gtest.h>

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
