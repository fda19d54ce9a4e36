//===- Progress.cpp -------------------------------------------------------===//

#include "Progress.h"

#include "llvm/Support/Format.h"
#include <cmath>

using namespace llvm;

namespace tensorplace {
namespace cli {

std::string formatDuration(double Seconds) {
  long Whole = std::lround(Seconds);
  if (Whole < 60)
    return std::to_string(Whole) + " s";
  std::string Out;
  raw_string_ostream OS(Out);
  if (Whole >= 3600)
    OS << Whole / 3600 << ":" << format("%02ld", Whole / 60 % 60);
  else
    OS << Whole / 60;
  OS << ":" << format("%02ld", Whole % 60);
  return OS.str();
}

Progress::Progress(raw_ostream &OS, bool Enabled, unsigned Total)
    : OS(OS), Enabled(Enabled), Total(Total),
      Start(std::chrono::steady_clock::now()) {}

void Progress::update(unsigned NewDone, unsigned NewFindings) {
  Done = NewDone;
  Findings = NewFindings;
  draw();
}

void Progress::tick() {
  // Once a second is enough for the clock.
  if (Shown && std::chrono::steady_clock::now() - LastDrawn <
                   std::chrono::milliseconds(900))
    return;
  draw();
}

void Progress::clear() {
  if (!Enabled || !Shown)
    return;
  OS << "\r\033[K";
  OS.flush();
  Shown = false;
}

void Progress::draw() {
  if (!Enabled)
    return;
  LastDrawn = std::chrono::steady_clock::now();
  double Elapsed = std::chrono::duration<double>(LastDrawn - Start).count();
  OS << "\r\033[K[" << Done << "/" << Total << "] " << Findings << " finding"
     << (Findings == 1 ? "" : "s") << ", " << formatDuration(Elapsed)
     << " elapsed";
  if (Done > 0 && Done < Total)
    OS << ", about " << formatDuration(Elapsed / Done * (Total - Done))
       << " left";
  OS.flush();
  Shown = true;
}

} // namespace cli
} // namespace tensorplace
