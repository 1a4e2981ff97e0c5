; A host (x86-64) module, even with an NVVM kernel annotation.
target triple = "x86_64-unknown-linux-gnu"

define void @host_fn(ptr %out) {
  store float 1.0, ptr %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @host_fn, !"kernel", i32 1}
