module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @broken(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%undefined] : memref<?xf32>
      gpu.return
    }
  }
}
