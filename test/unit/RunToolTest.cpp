//===- RunToolTest.cpp - Running ptxas and nvcc with a time limit ---------===//

#include "energy/RunTool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

using namespace energy;
using llvm::StringRef;

static std::string shell() {
  auto Sh = llvm::sys::findProgramByName("sh");
  return Sh ? *Sh : "/bin/sh";
}

TEST(RunTool, ExitCodeAndBothStreams) {
  std::string Sh = shell();
  StringRef Args[] = {Sh, "-c", "echo out; echo err >&2; exit 3"};
  ToolRun Run = runTool(Sh, Args, 10);
  EXPECT_EQ(Run.How, ToolRun::Exited);
  EXPECT_EQ(Run.ExitCode, 3);
  EXPECT_FALSE(Run.succeeded());
  EXPECT_EQ(Run.Output, "out\n");
  EXPECT_EQ(Run.Errors, "err\n");
  EXPECT_EQ(Run.howItFailed(), "exit code 3");
}

TEST(RunTool, MergedStreamsKeepTheirOrder) {
  std::string Sh = shell();
  StringRef Args[] = {Sh, "-c", "echo one >&2; echo two; echo three >&2"};
  ToolRun Run = runTool(Sh, Args, 10, /*MergeStreams=*/true);
  EXPECT_TRUE(Run.succeeded());
  EXPECT_EQ(Run.Output, "one\ntwo\nthree\n");
  EXPECT_EQ(Run.Errors, "");
}

TEST(RunTool, AHungToolIsStopped) {
  std::string Sh = shell();
  StringRef Args[] = {Sh, "-c", "sleep 30"};
  ToolRun Run = runTool(Sh, Args, 1);
  EXPECT_EQ(Run.How, ToolRun::TimedOut);
  EXPECT_FALSE(Run.succeeded());
}

TEST(RunTool, AMissingProgramSaysWhy) {
  StringRef Args[] = {"/nonexistent/energy-tool"};
  ToolRun Run = runTool("/nonexistent/energy-tool", Args, 10);
  EXPECT_EQ(Run.How, ToolRun::CouldNotRun);
  EXPECT_FALSE(Run.howItFailed().empty());
}

TEST(RunTool, FirstLinesOnOneLine) {
  EXPECT_EQ(firstLines("\n  a  \n\nb\n"), "a; b");
  EXPECT_EQ(firstLines(std::string(500, 'x')).size(), 400u);
}

TEST(RunTool, AFailedRunDescribed) {
  ToolRun Run;
  Run.ExitCode = 2;
  EXPECT_EQ(describeFailedRun("ptxas", Run, "ptxas fatal : broken"),
            "ptxas failed (exit code 2): ptxas fatal : broken");
  EXPECT_EQ(describeFailedRun("nvcc", Run, ""), "nvcc failed (exit code 2)");
  EXPECT_EQ(describeFailedRun("clang++", Run, "a.cu:1: error: x\n1 error",
                              /*SaidOnOwnLines=*/true),
            "clang++ failed (exit code 2):\na.cu:1: error: x\n1 error");
  Run.How = ToolRun::TimedOut;
  EXPECT_EQ(describeFailedRun("nvcc", Run, ""), "nvcc failed (timed out)");
}
