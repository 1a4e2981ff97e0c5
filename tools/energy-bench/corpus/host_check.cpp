// host_check.cpp - runs one corpus kernel under host emulation for every
// config of a case file (corpus_tool.py cases) and compares its outputs with
// the kernel's CPU reference.
//
//   clang++ -std=c++17 -I corpus/host -I tools/energy-bench -DKERNEL=saxpy \
//     corpus/host_check.cpp corpus/saxpy_ref.cpp -o check
//   ./check saxpy.cases
//
// A kernel with dynamic shared memory compiles from its host-source rewrite:
// add -DKERNEL_SOURCE='"dir/KERNEL.cu"' (corpus_tool.py host-source).
//
// Each config launches twice. Outputs are reset to their initial contents
// before every launch, scratch buffers never are: a kernel must write all of
// its output in every launch and leave its scratch ready for the next one
// (the GPU runner launches back to back on the same buffers).
// Arguments are checked against the kernel's signature (count, integer or
// floating type, size). Prints one line per failing config and a summary;
// exits 1 if any config fails.
#include "host_emulation.h"

#include "Reference.h"

#ifndef KERNEL
#error "define KERNEL to the corpus kernel's name (its source is KERNEL.cu)"
#endif
#ifdef KERNEL_SOURCE // a path in quotes: the kernel rewritten by corpus_tool.py host-source
#include KERNEL_SOURCE
#else
#define ENERGY_STRINGIFY(X) #X
#define ENERGY_SOURCE(K) ENERGY_STRINGIFY(K.cu)
#include ENERGY_SOURCE(KERNEL)
#endif

#include <cinttypes>
#include <type_traits>
#include <utility>

namespace {

using energy_host::fail;
using energy_ref::ElemType;

struct Buffer {
  std::string name;
  ElemType type;
  int64_t count = 0;
  bool output = false;
  std::vector<char> initial;
  std::unique_ptr<char, void (*)(void *)> storage{nullptr, std::free};
  char *data = nullptr; // what the kernel sees (256-byte aligned)
  std::vector<char> want;

  size_t bytes() const { return size_t(count) * energy_ref::elemSize(type); }
};

struct Arg {
  enum Kind { Param, Value, BufferRef } kind;
  std::string type; // i32 ... for Param/Value
  double number = 0;
  size_t buffer = 0;
};

struct Config {
  std::string id;
  dim3 block, grid;
  size_t dynamicShared = 0; // bytes per block, as the plugin's launch record says
  std::vector<std::pair<std::string, int>> tunables;
};

struct Case {
  std::string kernel;
  std::vector<std::pair<std::string, int64_t>> params;
  double rel = 0, abs = 0;
  std::vector<Buffer> buffers;
  std::vector<Arg> args;
  std::vector<Config> configs;
};

std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < line.size()) {
    size_t end = line.find(' ', at);
    if (end == std::string::npos)
      end = line.size();
    if (end > at)
      out.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

Case readCase(const char *path) {
  FILE *f = std::fopen(path, "rb");
  if (!f)
    fail(std::string("cannot open ") + path);
  Case c;
  char text[4096];
  auto bad = [&](const std::string &what) { fail(std::string(path) + ": " + what); };
  if (!std::fgets(text, sizeof text, f) || std::string(text) != "energy-host-case 2\n")
    bad("not a case file");
  while (std::fgets(text, sizeof text, f)) {
    std::string line(text);
    if (!line.empty() && line.back() == '\n')
      line.pop_back();
    if (line == "data")
      break;
    std::vector<std::string> w = split(line);
    if (w.empty())
      continue;
    if (w[0] == "kernel" && w.size() == 2) {
      c.kernel = w[1];
    } else if (w[0] == "param" && w.size() == 3) {
      c.params.emplace_back(w[1], std::stoll(w[2]));
    } else if (w[0] == "tolerance" && w.size() == 3) {
      c.rel = std::stod(w[1]);
      c.abs = std::stod(w[2]);
    } else if (w[0] == "buffer" && w.size() == 5) {
      Buffer b;
      b.name = w[1];
      b.type = energy_ref::parseElemType(w[2]);
      b.count = std::stoll(w[3]);
      b.output = w[4] == "1";
      if (b.type == ElemType::Unknown)
        bad("buffer " + b.name + ": unknown type " + w[2]);
      c.buffers.push_back(std::move(b));
    } else if (w[0] == "arg" && w.size() >= 3) {
      Arg a;
      if (w[1] == "buffer") {
        a.kind = Arg::BufferRef;
        a.buffer = c.buffers.size();
        for (size_t i = 0; i < c.buffers.size(); ++i)
          if (c.buffers[i].name == w[2])
            a.buffer = i;
        if (a.buffer == c.buffers.size())
          bad("argument names unknown buffer " + w[2]);
      } else if ((w[1] == "param" || w[1] == "value") && w.size() == 4) {
        a.kind = w[1] == "param" ? Arg::Param : Arg::Value;
        a.type = w[2];
        a.number = std::stod(w[3]);
      } else {
        bad("bad line: " + line);
      }
      c.args.push_back(a);
    } else if (w[0] == "config" && w.size() >= 10) {
      Config cfg;
      cfg.id = w[1];
      cfg.block = {unsigned(std::stoul(w[2])), unsigned(std::stoul(w[3])),
                   unsigned(std::stoul(w[4]))};
      cfg.grid = {unsigned(std::stoul(w[5])), unsigned(std::stoul(w[6])),
                  unsigned(std::stoul(w[7]))};
      cfg.dynamicShared = std::stoul(w[8]);
      size_t n = std::stoul(w[9]);
      if (w.size() != 10 + 2 * n)
        bad("bad line: " + line);
      for (size_t i = 0; i < n; ++i)
        cfg.tunables.emplace_back(w[10 + 2 * i], std::stoi(w[11 + 2 * i]));
      c.configs.push_back(cfg);
    } else {
      bad("bad line: " + line);
    }
  }
  for (Buffer &b : c.buffers) {
    b.initial.resize(b.bytes());
    if (std::fread(b.initial.data(), 1, b.bytes(), f) != b.bytes())
      bad("truncated data of buffer " + b.name);
    void *data = nullptr; // exact size: a sanitizer sees every overrun
    if (posix_memalign(&data, 256, b.bytes() ? b.bytes() : 1))
      bad("out of memory");
    b.storage.reset(static_cast<char *>(data));
    b.data = b.storage.get();
    std::memcpy(b.data, b.initial.data(), b.bytes());
  }
  std::fclose(f);
  return c;
}

/// The reference's expected outputs, from the initial contents.
void computeReference(Case &c) {
  ReferenceFn ref = findReference(c.kernel);
  if (!ref)
    fail("no reference registered for " + c.kernel);
  ReferenceInputs in;
  ReferenceOutputs out;
  for (const auto &[name, value] : c.params)
    in.setParam(name, value);
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.args[i].kind == Arg::Value)
      in.setValue(int(i), c.args[i].number);
  for (Buffer &b : c.buffers) {
    in.addBuffer(b.name, b.type, b.initial.data(), b.count);
    if (b.output) {
      b.want = b.initial;
      out.addBuffer(b.name, b.type, b.want.data(), b.count);
    }
  }
  ref(in, out);
}

// --- calling the kernel with the case's arguments --------------------------------
template <class T> T convert(const Case &c, size_t index) {
  const Arg &a = c.args[index];
  auto mismatch = [&](const char *what) {
    fail("argument " + std::to_string(index) + ": the kernel takes " + what +
         ", corpus.json passes " + (a.kind == Arg::BufferRef ? "a buffer" : a.type));
  };
  if constexpr (std::is_pointer_v<T>) {
    if (a.kind != Arg::BufferRef)
      mismatch("a pointer");
    return reinterpret_cast<T>(c.buffers[a.buffer].data);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (a.kind == Arg::BufferRef || a.type != (sizeof(T) == 4 ? "f32" : "f64"))
      mismatch(sizeof(T) == 4 ? "f32" : "f64");
    return static_cast<T>(a.number);
  } else {
    static_assert(std::is_integral_v<T>, "unsupported kernel parameter type");
    bool ok = a.kind != Arg::BufferRef && a.type[0] != 'f' &&
              std::stoi(a.type.substr(1)) == int(8 * sizeof(T));
    if (!ok)
      mismatch(sizeof(T) == 4 ? "a 32-bit integer" : "a 64-bit integer");
    return static_cast<T>(a.number);
  }
}

template <class... P, size_t... I>
void callWith(void (*kernel)(P...), const Case &c, std::index_sequence<I...>) {
  kernel(convert<P>(c, I)...);
}

template <class... P> std::function<void()> bind(void (*kernel)(P...), const Case &c) {
  if (c.args.size() != sizeof...(P))
    fail("the kernel takes " + std::to_string(sizeof...(P)) +
         " arguments, corpus.json passes " + std::to_string(c.args.size()));
  return [kernel, &c] { callWith(kernel, c, std::index_sequence_for<P...>{}); };
}

// --- comparing ------------------------------------------------------------------
double element(const Buffer &b, const char *base, int64_t i) {
  switch (b.type) {
  case ElemType::F16: {
    uint16_t h;
    std::memcpy(&h, base + 2 * i, 2);
    return energy_ref::halfToFloat(h);
  }
  case ElemType::F32: return reinterpret_cast<const float *>(base)[i];
  case ElemType::F64: return reinterpret_cast<const double *>(base)[i];
  case ElemType::I32: return reinterpret_cast<const int32_t *>(base)[i];
  case ElemType::U32: return reinterpret_cast<const uint32_t *>(base)[i];
  case ElemType::I64: return double(reinterpret_cast<const int64_t *>(base)[i]);
  case ElemType::U8: return reinterpret_cast<const uint8_t *>(base)[i];
  default: return 0;
  }
}

/// Empty if every output matches, else what the first mismatches are.
std::string compare(const Case &c) {
  std::string report;
  for (const Buffer &b : c.buffers) {
    if (!b.output)
      continue;
    int64_t bad = 0;
    for (int64_t i = 0; i < b.count; ++i) {
      double got = element(b, b.data, i), want = element(b, b.want.data(), i);
      if (std::fabs(got - want) <= c.abs + c.rel * std::fabs(want))
        continue; // NaN fails the test above
      if (++bad <= 3)
        report += " " + b.name + "[" + std::to_string(i) + "]=" + std::to_string(got) +
                  " want " + std::to_string(want) + ";";
    }
    if (bad > 3)
      report += " (" + std::to_string(bad) + " mismatches in " + b.name + ")";
  }
  return report;
}

void setTunables(const Config &cfg) {
  for (const auto &[name, value] : cfg.tunables) {
    int *values = energy_host::findTunable(name);
    if (!values)
      fail("config " + cfg.id + ": the kernel declares no tunable " + name);
    values[0] = value;
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CASES\n", argv[0]);
    return 2;
  }
  Case c = readCase(argv[1]);
  computeReference(c);
  std::function<void()> body = bind(&KERNEL, c);
  size_t passed = 0;
  for (const Config &cfg : c.configs) {
    setTunables(cfg);
    std::string failure;
    for (int launch = 1; launch <= 2 && failure.empty(); ++launch) {
      for (Buffer &b : c.buffers)
        if (b.output)
          std::memcpy(b.data, b.initial.data(), b.bytes());
      energy_host::launch(cfg.grid, cfg.block, cfg.dynamicShared, body);
      std::string why = compare(c);
      if (!why.empty())
        failure = "launch " + std::to_string(launch) + ":" + why;
    }
    if (failure.empty())
      ++passed;
    else
      std::printf("FAIL %s config %s: %s\n", c.kernel.c_str(), cfg.id.c_str(),
                  failure.c_str());
    std::fflush(stdout); // before a later config's sanitizer report ends the run
  }
  std::printf("%s: %zu of %zu configs match the reference\n", c.kernel.c_str(), passed,
              c.configs.size());
  return passed == c.configs.size() ? 0 : 1;
}
