//===- OutputFiles.cpp - Files the plugin writes besides the IR -----------===//

#include "energy/OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace energy {

std::error_code outputFileProblem(StringRef Path) {
  if (Path == "-")
    return {};
  if (sys::fs::is_directory(Path))
    return make_error_code(errc::is_a_directory);
  if (sys::fs::exists(Path))
    return sys::fs::access(Path, sys::fs::AccessMode::Write);
  SmallString<256> Dir(Path);
  sys::path::remove_filename(Dir);
  if (Dir.empty())
    Dir = ".";
  if (!sys::fs::is_directory(Dir))
    return make_error_code(errc::no_such_file_or_directory);
  return sys::fs::access(Dir, sys::fs::AccessMode::Write);
}

/// Path made absolute, without . and .. components.
static std::string normalPath(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

bool sameOutputFile(StringRef A, StringRef B) {
  if (A.empty() || B.empty() || A == "-" || B == "-")
    return false;
  for (StringRef P : {A, B}) // /dev/null and the like take any writer
    if (sys::fs::exists(P) && !sys::fs::is_regular_file(P))
      return false;
  bool Same = false;
  if (!sys::fs::equivalent(A, B, Same))
    return Same;
  return normalPath(A) == normalPath(B);
}

std::optional<std::string> toolOutputFile() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("o");
  if (It == Options.end())
    return std::nullopt;
  auto *Output = dynamic_cast<cl::opt<std::string> *>(It->second);
  if (!Output || !Output->getNumOccurrences())
    return std::nullopt;
  return Output->getValue();
}

Error checkDistinctOutputs(ArrayRef<NamedOutput> Files) {
  for (size_t I = 0; I < Files.size(); ++I)
    for (size_t J = I + 1; J < Files.size(); ++J)
      if (sameOutputFile(Files[I].second, Files[J].second))
        return createStringError(inconvertibleErrorCode(),
                                 Files[I].first + " and " + Files[J].first +
                                     " name the same file '" +
                                     Files[J].second + "'");
  return Error::success();
}

Error checkNotToolOutput(ArrayRef<NamedOutput> Files) {
  auto Output = toolOutputFile();
  if (!Output)
    return Error::success();
  for (const auto &[Setting, Path] : Files)
    if (sameOutputFile(Path, *Output))
      return createStringError(inconvertibleErrorCode(),
                               Setting + " names the output file '" + Path +
                                   "' (-o)");
  return Error::success();
}

} // namespace energy
