#include "sim/cli/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace warpsim::cli {
namespace {

TEST(CliProgress, RenderShowsKernelsCtasCyclesAndRate) {
  ProgressState s;
  s.kernels_done = 0;
  s.kernels_total = 3;
  s.ctas_retired = 132;
  s.ctas_total = 264;
  s.simulated_cycles = 1'250'000;
  s.warp_instructions = 6'800'000;
  EXPECT_EQ(render_progress(s, 2.0, 10), "[#####.....] kernel 1/3  CTAs 132/264  1.2M cycles  3.4M inst/s");
}

TEST(CliProgress, RenderClampsAndHandlesEmptyKernel) {
  ProgressState s;
  s.kernels_done = 2;
  s.kernels_total = 2;
  EXPECT_EQ(render_progress(s, 0.0, 4), "[....] kernel 2/2  CTAs 0/0  0 cycles  0 inst/s");
}

TEST(CliProgress, DisabledBarWritesNothing) {
  std::ostringstream os;
  {
    ProgressBar bar(os, /*enabled=*/false);
    bar.update(ProgressState{0, 1, 5, 10, 100, 1000});
    bar.finish(ProgressState{1, 1, 10, 10, 200, 2000});
    EXPECT_EQ(bar.draws(), 0);
  }
  EXPECT_TRUE(os.str().empty());
}

TEST(CliProgress, EnabledBarThrottlesRedrawsAndEndsLine) {
  std::ostringstream os;
  ProgressBar bar(os, /*enabled=*/true, std::chrono::hours(1));
  bar.update(ProgressState{0, 1, 1, 10, 10, 10});
  bar.update(ProgressState{0, 1, 2, 10, 20, 20});  // within the interval: not drawn
  EXPECT_EQ(bar.draws(), 1);
  bar.finish(ProgressState{1, 1, 10, 10, 100, 100});
  EXPECT_EQ(bar.draws(), 2);
  const std::string text = os.str();
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.find("CTAs 10/10"), std::string::npos);
  EXPECT_EQ(text.find("CTAs 2/10"), std::string::npos);
}

}  // namespace
}  // namespace warpsim::cli
