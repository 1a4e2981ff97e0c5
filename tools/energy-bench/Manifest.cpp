//===- Manifest.cpp - The sweep manifest (energy-sweep-v1) ----------------===//
//
// Reads the manifest document and checks its content, field by field. What
// it points to is checked in ManifestFiles.cpp; `init` strings are parsed in
// InitSpec.cpp.
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"

#include "BenchJson.h"

#include <set>

namespace bench {

static const char *const ManifestFormat = "energy-sweep-v1";
// Launch limits of every GPU the project targets (sm_70 and later).
static const int64_t MaxBlockThreads = 1024;
static const int64_t MaxGridX = 2147483647, MaxGridYZ = 65535;

namespace {

/// Reads typed fields of one JSON object; the first problem of each field is
/// reported as "<file>: <context>: <what>".
class FieldReader {
public:
  FieldReader(Diagnostics &D, const std::string &File, std::string Context)
      : D(D), File(File), Context(std::move(Context)) {}

  void error(const std::string &What) {
    D.error(File, Context.empty() ? What : Context + ": " + What);
    Failed = true;
  }
  bool failed() const { return Failed; }

  const Json *field(const Json &Obj, const char *Key, bool Required = true) {
    const Json *V = member(Obj, Key);
    if (!V && Required)
      error(std::string("missing field '") + Key + "'");
    return V;
  }
  bool string(const Json &Obj, const char *Key, std::string &Out, bool Required = true) {
    const Json *V = field(Obj, Key, Required);
    if (!V)
      return false;
    if (!V->is_string() || V->get_ref<const std::string &>().empty()) {
      error(std::string("'") + Key + "' must be a non-empty string");
      return false;
    }
    Out = V->get<std::string>();
    return true;
  }
  bool integer(const Json &Obj, const char *Key, int64_t &Out, int64_t Min,
               int64_t Max, bool Required = true) {
    const Json *V = field(Obj, Key, Required);
    if (!V)
      return false;
    if (!isInt64(*V) || asInt64(*V) < Min || asInt64(*V) > Max) {
      error(std::string("'") + Key + "' must be an integer in [" + std::to_string(Min) +
            ", " + std::to_string(Max) + "]");
      return false;
    }
    Out = asInt64(*V);
    return true;
  }
  bool number(const Json &Obj, const char *Key, double &Out, bool Required = true) {
    const Json *V = field(Obj, Key, Required);
    if (!V)
      return false;
    if (!V->is_number()) {
      error(std::string("'") + Key + "' must be a number");
      return false;
    }
    Out = V->get<double>();
    return true;
  }
  bool boolean(const Json &Obj, const char *Key, bool &Out) {
    const Json *V = field(Obj, Key, false);
    if (!V)
      return false;
    if (!V->is_boolean()) {
      error(std::string("'") + Key + "' must be true or false");
      return false;
    }
    Out = V->get<bool>();
    return true;
  }
  /// Three positive integers, each at most Max[i].
  bool dims(const Json &Obj, const char *Key, unsigned Out[3], const int64_t Max[3]) {
    const Json *V = field(Obj, Key);
    if (!V)
      return false;
    if (!V->is_array() || V->size() != 3) {
      error(std::string("'") + Key + "' must be an array of 3 positive integers");
      return false;
    }
    for (int I = 0; I < 3; ++I) {
      const Json &E = (*V)[I];
      if (!isInt64(E) || asInt64(E) < 1 || asInt64(E) > Max[I]) {
        error(std::string("'") + Key + "' must be 3 positive integers (at most " +
              std::to_string(Max[0]) + ", " + std::to_string(Max[1]) + ", " +
              std::to_string(Max[2]) + ")");
        return false;
      }
      Out[I] = static_cast<unsigned>(asInt64(E));
    }
    return true;
  }

private:
  Diagnostics &D;
  const std::string &File;
  std::string Context;
  bool Failed = false;
};

bool readBuffer(FieldReader &R, const Json &B, BufferSpec &Out) {
  if (!B.is_object()) {
    R.error("each buffer must be an object");
    return false;
  }
  if (!R.string(B, "name", Out.Name))
    return false;
  std::string TypeName;
  if (!R.string(B, "type", TypeName))
    return false;
  Out.Type = energy_ref::parseElemType(TypeName);
  if (Out.Type == ElemType::Unknown) {
    R.error("buffer '" + Out.Name + "': unknown type '" + TypeName +
            "' (expected f16 f32 f64 i32 u32 i64 u8)");
    return false;
  }
  if (!R.integer(B, "count", Out.Count, 1, int64_t(1) << 40))
    return false;
  std::string Init;
  if (!R.string(B, "init", Init))
    return false;
  std::string Why = parseInit(Init, Out.Type, Out.Init);
  if (!Why.empty()) {
    R.error("buffer '" + Out.Name + "': " + Why);
    return false;
  }
  R.boolean(B, "output", Out.Output);
  return !R.failed();
}

bool readBuffers(FieldReader &R, const Json &List, std::vector<BufferSpec> &Out) {
  if (!List.is_array() || List.empty()) {
    R.error("'buffers' must be a non-empty array");
    return false;
  }
  std::set<std::string> Names;
  for (const Json &B : List) {
    BufferSpec S;
    if (!readBuffer(R, B, S))
      return false;
    if (!Names.insert(S.Name).second) {
      R.error("duplicate buffer '" + S.Name + "'");
      return false;
    }
    Out.push_back(std::move(S));
  }
  return true;
}

bool readArgs(FieldReader &R, const Json &List, KernelSpec &K) {
  if (!List.is_array()) {
    R.error("'args' must be an array");
    return false;
  }
  for (size_t I = 0; I < List.size(); ++I) {
    const Json &A = List[I];
    std::string Where = "argument " + std::to_string(I);
    if (!A.is_object()) {
      R.error(Where + " must be an object");
      return false;
    }
    ArgSpec S;
    int Kinds = A.contains("param") + A.contains("value") + A.contains("buffer");
    if (Kinds != 1) {
      R.error(Where + " must have exactly one of 'param', 'value', 'buffer'");
      return false;
    }
    if (const Json *Buf = member(A, "buffer")) {
      S.K = ArgSpec::Kind::Buffer;
      if (!Buf->is_string()) {
        R.error(Where + ": 'buffer' must be a string");
        return false;
      }
      S.Name = Buf->get<std::string>();
      bool Found = false;
      for (const BufferSpec &B : K.Buffers)
        Found |= B.Name == S.Name;
      if (!Found) {
        R.error(Where + " names unknown buffer '" + S.Name + "'");
        return false;
      }
      K.Args.push_back(S);
      continue;
    }
    std::string TypeName;
    if (!R.string(A, "type", TypeName))
      return false;
    S.Type = energy_ref::parseElemType(TypeName);
    if (S.Type == ElemType::Unknown) {
      R.error(Where + ": unknown type '" + TypeName + "' (expected f16 f32 f64 i32 u32 i64 u8)");
      return false;
    }
    if (const Json *P = member(A, "param")) {
      S.K = ArgSpec::Kind::Param;
      if (!P->is_string()) {
        R.error(Where + ": 'param' must be a string");
        return false;
      }
      S.Name = P->get<std::string>();
      bool Found = false;
      for (const auto &KP : K.Params)
        if (KP.first == S.Name) {
          Found = true;
          S.IntValue = KP.second;
        }
      if (!Found) {
        R.error(Where + " names unknown param '" + S.Name + "'");
        return false;
      }
      if (S.Type != ElemType::I32 && S.Type != ElemType::I64) {
        R.error(Where + ": param '" + S.Name + "' must have type i32 or i64");
        return false;
      }
      if (S.Type == ElemType::I32 && (S.IntValue > 2147483647 || S.IntValue < -2147483648LL)) {
        R.error(Where + ": param '" + S.Name + "' = " + std::to_string(S.IntValue) +
                " does not fit i32");
        return false;
      }
      S.Value = static_cast<double>(S.IntValue);
      K.Args.push_back(S);
      continue;
    }
    const Json *V = member(A, "value");
    S.K = ArgSpec::Kind::Value;
    if (!V->is_number()) {
      R.error(Where + ": 'value' must be a number");
      return false;
    }
    S.Value = V->get<double>();
    S.IntValue = isInt64(*V) ? asInt64(*V) : 0;
    if (!isFloatType(S.Type)) {
      double Lo, Hi;
      typeRange(S.Type, Lo, Hi);
      if (!isInt64(*V) || S.Value < Lo || S.Value > Hi) {
        R.error(Where + ": value must be an integer that fits " +
                energy_ref::elemTypeName(S.Type));
        return false;
      }
    }
    K.Args.push_back(S);
  }
  return true;
}

bool readConfig(Diagnostics &D, const std::string &File, const Json &C,
                const KernelSpec &K, size_t NumInputs, ConfigSpec &Out,
                const std::string &ManifestDir) {
  const Json *IdField = member(C, "id");
  std::string Id = IdField && IdField->is_string() ? IdField->get<std::string>() : "";
  FieldReader R(D, File, Id.empty() ? "kernel '" + K.Name + "': config" : "config '" + Id + "'");
  if (!C.is_object()) {
    R.error("must be an object");
    return false;
  }
  if (!R.string(C, "id", Out.Id))
    return false;
  std::string Prefix = K.Name + "/";
  if (Out.Id.compare(0, Prefix.size(), Prefix) != 0 || Out.Id.size() == Prefix.size()) {
    R.error("id must start with '" + Prefix + "'");
    return false;
  }
  Out.Name = Out.Id.substr(Prefix.size());
  std::string Ptx;
  if (R.string(C, "ptx", Ptx))
    Out.PtxPath = Ptx[0] == '/' ? Ptx : ManifestDir + "/" + Ptx;
  const int64_t BlockMax[3] = {1024, 1024, 64};
  const int64_t GridMax[3] = {MaxGridX, MaxGridYZ, MaxGridYZ};
  if (R.dims(C, "block", Out.Block, BlockMax)) {
    int64_t Threads = int64_t(Out.Block[0]) * Out.Block[1] * Out.Block[2];
    if (Threads > MaxBlockThreads)
      R.error("block has " + std::to_string(Threads) + " threads (at most 1024)");
  }
  R.dims(C, "grid", Out.Grid, GridMax);
  R.integer(C, "dynamic_smem", Out.DynamicSmem, 0, 1 << 30);
  if (const Json *T = R.field(C, "tunables", false)) {
    if (!T->is_object())
      R.error("'tunables' must be an object");
    else
      for (const auto &M : T->items()) {
        if (!isInt64(M.value())) {
          R.error("tunable '" + M.key() + "' must be an integer");
          break;
        }
        Out.Tunables.emplace_back(M.key(), asInt64(M.value()));
      }
  }
  if (const Json *MI = R.field(C, "model_inputs")) {
    if (!MI->is_array() || MI->size() != NumInputs) {
      R.error("'model_inputs' must be an array of " + std::to_string(NumInputs) +
              " numbers (one per model_input_names)");
    } else {
      for (const Json &V : *MI) {
        if (!V.is_number()) {
          R.error("'model_inputs' must hold numbers only");
          break;
        }
        Out.ModelInputs.push_back(V.get<double>());
      }
    }
  }
  for (auto [Key, Dest] : {std::pair<const char *, double *>{"analytic_time_s", &Out.AnalyticTime},
                           {"analytic_energy_j", &Out.AnalyticEnergy}}) {
    const Json *V = member(C, Key);
    if (!V || V->is_null())
      continue;
    if (!V->is_number() || !(V->get<double>() > 0))
      R.error(std::string("'") + Key + "' must be a positive number or null");
    else
      *Dest = V->get<double>();
  }
  R.boolean(C, "repeat", Out.Repeat);
  R.boolean(C, "reference", Out.Reference);
  if (const Json *B = member(C, "buffers"))
    readBuffers(R, *B, Out.Buffers);
  return !R.failed();
}

bool readKernel(Diagnostics &D, const std::string &File, const Json &KV,
                const Manifest &M, KernelSpec &K) {
  const Json *NameField = member(KV, "name");
  std::string Name = NameField && NameField->is_string() ? NameField->get<std::string>() : "";
  FieldReader R(D, File, Name.empty() ? "kernel" : "kernel '" + Name + "'");
  if (!KV.is_object()) {
    R.error("each kernel must be an object");
    return false;
  }
  if (!R.string(KV, "name", K.Name) || !R.string(KV, "entry", K.Entry))
    return false;
  if (const Json *P = R.field(KV, "params")) {
    if (!P->is_object()) {
      R.error("'params' must be an object of integers");
      return false;
    }
    for (const auto &Mem : P->items()) {
      if (!isInt64(Mem.value())) {
        R.error("param '" + Mem.key() + "' must be an integer");
        return false;
      }
      K.Params.emplace_back(Mem.key(), asInt64(Mem.value()));
    }
  }
  const Json *Buffers = R.field(KV, "buffers");
  if (!Buffers || !readBuffers(R, *Buffers, K.Buffers))
    return false;
  bool AnyOutput = false;
  for (const BufferSpec &B : K.Buffers)
    AnyOutput |= B.Output;
  if (!AnyOutput) {
    R.error("no buffer is an output (\"output\": true): nothing to check");
    return false;
  }
  const Json *Args = R.field(KV, "args");
  if (!Args || !readArgs(R, *Args, K))
    return false;
  if (const Json *T = R.field(KV, "tolerance")) {
    if (!T->is_object()) {
      R.error("'tolerance' must be an object {\"rel\": x, \"abs\": y}");
      return false;
    }
    if (!R.number(*T, "rel", K.Rel) || !R.number(*T, "abs", K.Abs))
      return false;
    if (K.Rel < 0 || K.Abs < 0) {
      R.error("tolerances must be >= 0");
      return false;
    }
  } else {
    return false;
  }
  if (const Json *Ch = member(KV, "choices")) {
    if (!Ch->is_object()) {
      R.error("'choices' must be an object");
      return false;
    }
    for (const auto &Mem : Ch->items())
      if (Mem.value().is_string())
        K.Choices.emplace_back(Mem.key(), Mem.value().get<std::string>());
  }
  if (const Json *B = member(KV, "baseline")) {
    if (!B->is_object()) {
      R.error("'baseline' must be an object");
      return false;
    }
    std::string Ptx;
    if (R.string(*B, "ptx", Ptx, false))
      K.BaselinePtx = Ptx[0] == '/' ? Ptx : M.Dir + "/" + Ptx;
    R.string(*B, "default_config", K.DefaultConfig, false);
    R.string(*B, "occupancy_config", K.PluginOccupancyConfig, false);
    if (const Json *S = member(*B, "dynamic_smem_by_threads")) {
      bool OK = S->is_array();
      for (size_t I = 0; OK && I < S->size(); ++I) {
        const Json &P = (*S)[I];
        OK = P.is_array() && P.size() == 2 && isInt64(P[0]) && isInt64(P[1]);
        if (OK)
          K.BaselineSmem.emplace_back(int(asInt64(P[0])), asInt64(P[1]));
      }
      if (!OK)
        R.error("'baseline.dynamic_smem_by_threads' must be [[threads, bytes], ...]");
    }
  }
  const Json *Configs = R.field(KV, "configs");
  if (!Configs)
    return false;
  if (!Configs->is_array() || Configs->empty()) {
    R.error("'configs' must be a non-empty array");
    return false;
  }
  bool OK = true;
  std::set<std::string> Ids;
  for (const Json &C : *Configs) {
    ConfigSpec S;
    if (!readConfig(D, File, C, K, M.ModelInputNames.size(), S, M.Dir)) {
      OK = false;
      continue;
    }
    if (!Ids.insert(S.Id).second) {
      D.error(File, "config '" + S.Id + "': duplicate id");
      OK = false;
      continue;
    }
    K.Configs.push_back(std::move(S));
  }
  if (!OK)
    return false;
  size_t References = 0;
  for (size_t I = 0; I < K.Configs.size(); ++I)
    if (K.Configs[I].Reference) {
      if (!References)
        K.ReferenceConfig = I;
      ++References;
    }
  if (References > 1) {
    R.error(std::to_string(References) + " configs are marked \"reference\" (expected one)");
    return false;
  }
  if (References == 0)
    D.warning(File, "kernel '" + K.Name + "': no drift reference config; using '" +
                        K.Configs[0].Id + "'");
  for (const std::string *Id : {&K.DefaultConfig, &K.PluginOccupancyConfig})
    if (!Id->empty() && !Ids.count(*Id)) {
      R.error("baseline config '" + *Id + "' is not in 'configs'");
      return false;
    }
  for (const auto &Ch : K.Choices)
    if (!Ids.count(Ch.second))
      D.warning(File, "kernel '" + K.Name + "': choice '" + Ch.first + "' names config '" +
                          Ch.second + "', which is not in the manifest");
  return true;
}

} // namespace

bool loadManifest(const std::string &Path, Manifest &M, Diagnostics &D) {
  M.Path = Path;
  size_t Slash = Path.find_last_of('/');
  M.Dir = Slash == std::string::npos ? "." : (Slash == 0 ? "/" : Path.substr(0, Slash));
  std::string Text, Why;
  if (!readFile(Path, Text, Why)) {
    D.error(Path, "cannot read: " + Why);
    return false;
  }
  Json Root;
  if (!parseJson(Text, Root, Why)) {
    D.error(Path, "invalid JSON: " + Why);
    return false;
  }
  FieldReader R(D, Path, "");
  if (!Root.is_object()) {
    R.error("the manifest must be a JSON object");
    return false;
  }
  if (!R.string(Root, "format", M.Format))
    return false;
  if (M.Format != ManifestFormat) {
    R.error("format is '" + M.Format + "', expected '" + ManifestFormat + "'");
    return false;
  }
  if (!R.string(Root, "arch", M.Arch))
    return false;
  if (M.Arch.compare(0, 3, "sm_") != 0 || M.Arch.size() < 5) {
    R.error("arch '" + M.Arch + "' is not sm_XX");
    return false;
  }
  R.string(Root, "created", M.Created, false);
  R.string(Root, "plugin", M.Plugin, false);
  const Json *Names = R.field(Root, "model_input_names");
  if (!Names)
    return false;
  if (!Names->is_array()) {
    R.error("'model_input_names' must be an array of strings");
    return false;
  }
  for (const Json &N : *Names) {
    if (!N.is_string() || N.get_ref<const std::string &>().empty()) {
      R.error("'model_input_names' must be an array of non-empty strings");
      return false;
    }
    M.ModelInputNames.push_back(N.get<std::string>());
  }
  const Json *Kernels = R.field(Root, "kernels");
  if (!Kernels)
    return false;
  if (!Kernels->is_array() || Kernels->empty()) {
    R.error("'kernels' must be a non-empty array");
    return false;
  }
  bool OK = true;
  std::set<std::string> Seen;
  for (const Json &KV : *Kernels) {
    KernelSpec K;
    if (!readKernel(D, Path, KV, M, K)) {
      OK = false;
      continue;
    }
    if (!Seen.insert(K.Name).second) {
      D.error(Path, "duplicate kernel '" + K.Name + "'");
      OK = false;
      continue;
    }
    M.Kernels.push_back(std::move(K));
  }
  return OK;
}

} // namespace bench
