//===- ManifestFiles.cpp - What a manifest points to ----------------------===//
//
// Reading files, and checking the PTX and the compiled-in CPU references a
// loaded manifest names (Manifest.h).
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace bench {

bool readFile(const std::string &Path, std::string &Out, std::string &Error) {
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F) {
    Error = std::strerror(errno);
    return false;
  }
  Out.clear();
  char Buf[1 << 16];
  size_t N;
  while ((N = std::fread(Buf, 1, sizeof Buf, F)) > 0)
    Out.append(Buf, N);
  bool Failed = std::ferror(F);
  std::fclose(F);
  if (Failed) {
    Error = "read error";
    return false;
  }
  return true;
}

bool ptxHasEntry(const std::string &Ptx, const std::string &Name) {
  size_t At = 0;
  while ((At = Ptx.find(".entry", At)) != std::string::npos) {
    At += 6;
    size_t P = At;
    if (P >= Ptx.size() || (Ptx[P] != ' ' && Ptx[P] != '\t'))
      continue;
    while (P < Ptx.size() && (Ptx[P] == ' ' || Ptx[P] == '\t'))
      ++P;
    if (Ptx.compare(P, Name.size(), Name) != 0)
      continue;
    size_t E = P + Name.size();
    if (E == Ptx.size() || Ptx[E] == '(' || Ptx[E] == ' ' || Ptx[E] == '\t' ||
        Ptx[E] == '\n' || Ptx[E] == '\r')
      return true;
  }
  return false;
}

static bool checkPtx(const std::string &Path, const std::string &Entry,
                     const std::string &What, Diagnostics &D) {
  std::string Text, Why;
  if (!readFile(Path, Text, Why)) {
    D.error(Path, "cannot read PTX of " + What + ": " + Why);
    return false;
  }
  if (Text.empty()) {
    D.error(Path, "empty PTX file (" + What + ")");
    return false;
  }
  if (!ptxHasEntry(Text, Entry)) {
    D.error(Path, "no '.entry " + Entry + "' in the PTX of " + What);
    return false;
  }
  return true;
}

bool checkManifestFiles(const Manifest &M, Diagnostics &D) {
  bool OK = true;
  for (const KernelSpec &K : M.Kernels) {
    if (!findReference(K.Name)) {
      D.error(M.Path, "kernel '" + K.Name + "': no CPU reference '" + K.Name +
                          "' is compiled into energy-bench (add corpus/" + K.Name +
                          "_ref.cpp and rebuild)");
      OK = false;
    }
    for (const ConfigSpec &C : K.Configs)
      OK &= checkPtx(C.PtxPath, K.Entry, "config '" + C.Id + "'", D);
    if (!K.BaselinePtx.empty())
      OK &= checkPtx(K.BaselinePtx, K.Entry, "kernel '" + K.Name + "' (baseline)", D);
  }
  return OK;
}

} // namespace bench
