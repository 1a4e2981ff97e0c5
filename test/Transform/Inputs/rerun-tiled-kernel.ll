; energy-optimize's output for sgemm of kernels.cu, reduced: TILE folded, reqntid set.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = constant [57 x i8] c"energy.tune:record=__energy_launch_sgemm;block=TILE,TILE\00"
@llvm.global.annotations = global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @_Z5sgemmiPKfS0_Pf, ptr @.str, ptr null, i32 18, ptr null }]

define void @_Z5sgemmiPKfS0_Pf() {
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @_Z5sgemmiPKfS0_Pf, !"kernel", i32 1}
!1 = !{ptr @_Z5sgemmiPKfS0_Pf, !"reqntidx", i32 32}
!2 = !{ptr @_Z5sgemmiPKfS0_Pf, !"reqntidy", i32 32}
!3 = !{ptr @_Z5sgemmiPKfS0_Pf, !"reqntidz", i32 1}
