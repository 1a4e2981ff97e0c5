; JacobiIteration<32, 6> from NVIDIA cuda-samples (c94ff36) Samples/5_Domain_Specific/HSOpticalFlow/flowCUDA.cu,
; device IR at -O2 (clang 19, sm_90), the one kernel kept (llvm-extract; shared tiles made internal again).
; An input of Corpus/rebuild-identical.test: its advice and its candidates' predictions used to change from
; run to run (128x1, 64x1, 32x2; candidate 128x1 at 0.93 ms or 2.24 ms), by the clamped halo reads'
; footprint (see Features/clamped-index.cu).
; ModuleID = flowCUDA.cu
source_filename = "flowCUDA.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

$_Z15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_ = comdat any

@_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du = internal addrspace(3) global [272 x float] undef, align 4
@_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv = internal addrspace(3) global [272 x float] undef, align 4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #0

; Function Attrs: convergent norecurse nounwind
define dso_local void @_Z15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_(ptr nocapture noundef readonly %0, ptr nocapture noundef readonly %1, ptr nocapture noundef readonly %2, ptr nocapture noundef readonly %3, ptr nocapture noundef readonly %4, i32 noundef %5, i32 noundef %6, i32 noundef %7, float noundef %8, ptr nocapture noundef writeonly %9, ptr nocapture noundef writeonly %10) local_unnamed_addr #1 comdat {
  %12 = tail call i64 asm "{\0A\09 .reg .u32 start;\0A\09 .reg .u64 extended;\0A\09 mov.u32 start, %reserved_smem_offset_1;\0A\09 cvt.u64.u32 extended, start;\0A\09 cvta.shared.u64 $0, extended;\0A\09}", "=l"() #3, !srcloc !8
  %13 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %14 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %15 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %16 = mul i32 %14, %15
  %17 = add i32 %16, %13
  %18 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %19 = tail call noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %20 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %21 = mul nuw nsw i32 %19, %20
  %22 = add nuw nsw i32 %21, %18
  %23 = add nsw i32 %5, -1
  %24 = tail call noundef i32 @llvm.smin.i32(i32 %17, i32 %23)
  %25 = add nsw i32 %6, -1
  %26 = tail call noundef i32 @llvm.smin.i32(i32 %22, i32 %25)
  %27 = mul nsw i32 %26, %7
  %28 = add nsw i32 %27, %24
  %29 = mul nuw nsw i32 %18, 34
  %30 = add nuw nsw i32 %29, %13
  %31 = add nuw nsw i32 %30, 35
  %32 = sext i32 %28 to i64
  %33 = getelementptr inbounds float, ptr %0, i64 %32
  %34 = load float, ptr %33, align 4, !tbaa !9
  %35 = zext nneg i32 %31 to i64
  %36 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %35
  store volatile float %34, ptr %36, align 4, !tbaa !9
  %37 = getelementptr inbounds float, ptr %1, i64 %32
  %38 = load float, ptr %37, align 4, !tbaa !9
  %39 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %35
  store volatile float %38, ptr %39, align 4, !tbaa !9
  switch i32 %18, label %94 [
    i32 0, label %40
    i32 1, label %60
  ]

40:                                               ; preds = %11
  %41 = tail call noundef i32 @llvm.umin.i32(i32 %17, i32 %23)
  %42 = tail call i32 @llvm.umax.i32(i32 %21, i32 1)
  %43 = add nsw i32 %42, -1
  %44 = mul nsw i32 %43, %7
  %45 = add nsw i32 %44, %41
  %46 = add nuw nsw i32 %13, 1
  %47 = sext i32 %45 to i64
  %48 = getelementptr inbounds float, ptr %0, i64 %47
  %49 = load float, ptr %48, align 4, !tbaa !9
  %50 = zext nneg i32 %46 to i64
  %51 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %50
  store volatile float %49, ptr %51, align 4, !tbaa !9
  %52 = getelementptr inbounds float, ptr %1, i64 %47
  %53 = load float, ptr %52, align 4, !tbaa !9
  %54 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %50
  store volatile float %53, ptr %54, align 4, !tbaa !9
  %55 = add nuw nsw i32 %21, 6
  %56 = tail call noundef i32 @llvm.smin.i32(i32 %55, i32 %25)
  %57 = add nuw nsw i32 %13, 239
  %58 = mul nsw i32 %56, %7
  %59 = add nsw i32 %58, %41
  br label %83

60:                                               ; preds = %11
  %61 = icmp ult i32 %13, 6
  br i1 %61, label %62, label %94

62:                                               ; preds = %60
  %63 = tail call i32 @llvm.smax.i32(i32 %16, i32 1)
  %64 = add nsw i32 %63, -1
  %65 = add nuw nsw i32 %21, %13
  %66 = tail call noundef i32 @llvm.umin.i32(i32 %65, i32 %25)
  %67 = mul nsw i32 %66, %7
  %68 = add nsw i32 %64, %67
  %69 = mul nuw nsw i32 %13, 34
  %70 = add nuw nsw i32 %69, 34
  %71 = sext i32 %68 to i64
  %72 = getelementptr inbounds float, ptr %0, i64 %71
  %73 = load float, ptr %72, align 4, !tbaa !9
  %74 = zext nneg i32 %70 to i64
  %75 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %74
  store volatile float %73, ptr %75, align 4, !tbaa !9
  %76 = getelementptr inbounds float, ptr %1, i64 %71
  %77 = load float, ptr %76, align 4, !tbaa !9
  %78 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %74
  store volatile float %77, ptr %78, align 4, !tbaa !9
  %79 = add nsw i32 %16, 32
  %80 = tail call noundef i32 @llvm.smin.i32(i32 %79, i32 %23)
  %81 = add nsw i32 %67, %80
  %82 = add nuw nsw i32 %69, 67
  br label %83

83:                                               ; preds = %62, %40
  %84 = phi i32 [ %81, %62 ], [ %59, %40 ]
  %85 = phi i32 [ %82, %62 ], [ %57, %40 ]
  %86 = sext i32 %84 to i64
  %87 = getelementptr inbounds float, ptr %0, i64 %86
  %88 = load float, ptr %87, align 4, !tbaa !9
  %89 = zext nneg i32 %85 to i64
  %90 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %89
  store volatile float %88, ptr %90, align 4, !tbaa !9
  %91 = getelementptr inbounds float, ptr %1, i64 %86
  %92 = load float, ptr %91, align 4, !tbaa !9
  %93 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %89
  store volatile float %92, ptr %93, align 4, !tbaa !9
  br label %94

94:                                               ; preds = %83, %60, %11
  tail call void @llvm.nvvm.barrier.sync(i32 0)
  %95 = icmp slt i32 %17, %5
  %96 = icmp slt i32 %22, %6
  %97 = and i1 %95, %96
  br i1 %97, label %98, label %153

98:                                               ; preds = %94
  %99 = add nuw nsw i32 %30, 34
  %100 = add nuw nsw i32 %30, 36
  %101 = add nuw nsw i32 %30, 69
  %102 = add nuw nsw i32 %30, 1
  %103 = zext nneg i32 %99 to i64
  %104 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %103
  %105 = load volatile float, ptr %104, align 4, !tbaa !9
  %106 = zext nneg i32 %100 to i64
  %107 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %106
  %108 = load volatile float, ptr %107, align 4, !tbaa !9
  %109 = fadd contract float %105, %108
  %110 = zext nneg i32 %101 to i64
  %111 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %110
  %112 = load volatile float, ptr %111, align 4, !tbaa !9
  %113 = fadd contract float %109, %112
  %114 = zext nneg i32 %102 to i64
  %115 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2du to ptr), i64 0, i64 %114
  %116 = load volatile float, ptr %115, align 4, !tbaa !9
  %117 = fadd contract float %113, %116
  %118 = fmul contract float %117, 2.500000e-01
  %119 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %103
  %120 = load volatile float, ptr %119, align 4, !tbaa !9
  %121 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %106
  %122 = load volatile float, ptr %121, align 4, !tbaa !9
  %123 = fadd contract float %120, %122
  %124 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %110
  %125 = load volatile float, ptr %124, align 4, !tbaa !9
  %126 = fadd contract float %123, %125
  %127 = getelementptr inbounds [272 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_E2dv to ptr), i64 0, i64 %114
  %128 = load volatile float, ptr %127, align 4, !tbaa !9
  %129 = fadd contract float %126, %128
  %130 = fmul contract float %129, 2.500000e-01
  %131 = getelementptr inbounds float, ptr %2, i64 %32
  %132 = load float, ptr %131, align 4, !tbaa !9
  %133 = fmul contract float %118, %132
  %134 = getelementptr inbounds float, ptr %3, i64 %32
  %135 = load float, ptr %134, align 4, !tbaa !9
  %136 = fmul contract float %135, %130
  %137 = fadd contract float %133, %136
  %138 = getelementptr inbounds float, ptr %4, i64 %32
  %139 = load float, ptr %138, align 4, !tbaa !9
  %140 = fadd contract float %139, %137
  %141 = fmul contract float %132, %132
  %142 = fmul contract float %135, %135
  %143 = fadd contract float %141, %142
  %144 = fadd contract float %143, %8
  %145 = fdiv contract float %140, %144
  %146 = fmul contract float %132, %145
  %147 = fsub contract float %118, %146
  %148 = getelementptr inbounds float, ptr %9, i64 %32
  store float %147, ptr %148, align 4, !tbaa !9
  %149 = load float, ptr %134, align 4, !tbaa !9
  %150 = fmul contract float %149, %145
  %151 = fsub contract float %130, %150
  %152 = getelementptr inbounds float, ptr %10, i64 %32
  store float %151, ptr %152, align 4, !tbaa !9
  br label %153

153:                                              ; preds = %98, %94
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.sync(i32) #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32) #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #0

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umax.i32(i32, i32) #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { convergent nounwind memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!nvvm.annotations = !{!4}
!llvm.ident = !{!5, !6}
!nvvmir.version = !{!7}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{ptr @_Z15JacobiIterationILi32ELi6EEvPKfS1_S1_S1_S1_iiifPfS2_, !"kernel", i32 1}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!7 = !{i32 2, i32 0}
!8 = !{i64 2163454718, i64 2163454722, i64 2163454759, i64 2163454799, i64 2163454860, i64 2163454896, i64 2163454946}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C++ TBAA"}
