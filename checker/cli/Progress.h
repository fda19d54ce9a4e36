//===- Progress.h - A progress line on a terminal -------------------------===//

#ifndef TENSORPLACE_CLI_PROGRESS_H
#define TENSORPLACE_CLI_PROGRESS_H

#include "llvm/Support/raw_ostream.h"
#include <chrono>

namespace tensorplace {
namespace cli {

/// One line on standard error, rewritten in place: files done of total,
/// findings so far, time elapsed and an estimate of the time left. Does
/// nothing unless enabled (standard error is a terminal).
class Progress {
public:
  Progress(llvm::raw_ostream &OS, bool Enabled, unsigned Total);
  void update(unsigned Done, unsigned Findings);
  /// Redraws with the latest figures (the clock moves on).
  void tick();
  /// Removes the line, so that other output can be printed; the next
  /// update() or tick() draws it again.
  void clear();

private:
  void draw();
  llvm::raw_ostream &OS;
  bool Enabled;
  unsigned Total, Done = 0, Findings = 0;
  bool Shown = false;
  std::chrono::steady_clock::time_point Start, LastDrawn;
};

/// "1:05" or "12 s".
std::string formatDuration(double Seconds);

} // namespace cli
} // namespace tensorplace

#endif
