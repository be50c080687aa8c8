;; The engine's own WebAssembly SIMD kernels for the wasm backend. They read and write tensors in
;; place in the backend's heap (the module imports that memory), four float32 lanes at a time.
;;
;; Why they exist: on the wasm backend the clusterless-KDE stages other than the GEMM are bound by
;; TensorFlow.js's element-wise kernels, which evaluate exp and log one lane at a time (the engine's
;; calibration measures how far below its matmul's rate), and build a
;; Gaussian kernel matrix from five separate passes over memory (broadcast difference, square, sum,
;; scale, shift). `bench/kernels.ts` measures each kernel here against the op graph it replaces.
;;
;; The exp and log polynomials and the series products are written with relaxed SIMD's fused
;; multiply-add; the build also compiles this text with each one lowered to a multiply and an add
;; (scripts/kernelSource.ts), and the engine installs the fused build where the WebAssembly engine
;; has relaxed SIMD. Both builds' exp and log are within an ulp of the float64 functions; on one
;; machine every kernel uses the same build, so the kernels that share the exp (general, flushed)
;; still give the same bits.
;;
;; Every exported function takes byte offsets into the heap and an element count of at least four:
;; when a row is not a whole number of vectors, its last vector overlaps the one before it, which is
;; harmless because no output aliases an input. Callers handle shorter rows themselves.
;;
;; The module is written in parts, one per kernel group, in kdeKernels/; `npm run build:kernels`
;; (scripts/kernelSource.ts) puts each part in place of its include line below before compiling.
;; Their order is the order of the functions in the binary (their indices), so a new part goes
;; last, and a function that moves between parts changes the binary. Any part calls the functions
;; of any other by name; each part says at its top which others it uses.
(module
  (import "env" "memory" (memory 0))

  ;; include kdeKernels/expLog.wat
  ;; include kdeKernels/gaussian.wat
  ;; include kdeKernels/compensatedWeights.wat
  ;; include kdeKernels/biasFloor.wat
  ;; include kdeKernels/series.wat
  ;; include kdeKernels/uniformGrid.wat
  ;; include kdeKernels/positionFactor.wat
  ;; include kdeKernels/interpolated.wat
)
