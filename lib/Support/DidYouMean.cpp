//===- DidYouMean.cpp - Suggestions for a misspelled name -----------------===//

#include "energy/DidYouMean.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <utility>
#include <vector>

using namespace llvm;

std::string energy::nameKey(StringRef Name) {
  std::string Key;
  for (char C : Name)
    if (isAlnum(C))
      Key += toLower(C);
  return Key;
}

std::string energy::didYouMean(StringRef Given, ArrayRef<std::string> Known) {
  std::string GivenKey = nameKey(Given);
  if (GivenKey.empty())
    return "";
  // A typo costs about one edit per three characters.
  unsigned MaxEdits = std::max<unsigned>(1, GivenKey.size() / 3);
  std::vector<std::pair<unsigned, StringRef>> Close; // (edits, name), in order
  for (const std::string &Name : Known) {
    std::string Key = nameKey(Name);
    unsigned Edits = StringRef(Key).edit_distance(GivenKey, true, MaxEdits + 1);
    // A part of the name ("h100" for h100-sxm) is as close as it gets.
    bool Part = StringRef(Key).contains(GivenKey);
    if (Part || Edits <= MaxEdits)
      Close.push_back({Part ? 0 : Edits, Name});
  }
  if (Close.empty())
    return "";
  // The closest ones only.
  unsigned Best = std::min_element(Close.begin(), Close.end())->first;
  llvm::erase_if(Close, [Best](const auto &C) { return C.first != Best; });
  std::string Out = "; did you mean ";
  size_t Shown = std::min<size_t>(Close.size(), 3);
  for (size_t I = 0; I < Shown; ++I)
    Out += (I == 0 ? "'" : I + 1 == Shown ? " or '" : ", '") +
           Close[I].second.str() + "'";
  return Out + "?";
}
