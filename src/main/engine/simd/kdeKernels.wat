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
(module
  (import "env" "memory" (memory 0))

  ;; exp on four lanes, Cephes expf's scheme: n = nearest(x·log2 e), r = x − n·ln 2 in two parts
  ;; (Cody–Waite), e^r by a degree-6 polynomial p, then the result p·2^n built without a floating
  ;; operation that underflows: x86 takes a microcode assist of ~100 cycles for every subnormal
  ;; result, and the Gaussian kernels produce them by the million (pairs 13–14σ apart).
  ;; - n > −127: p·2^⌊n/2⌋·2^(n−⌊n/2⌋), two normal factors, so overflow still reaches +inf;
  ;; - n ≤ −127: the result is k·2^−149 with k = round(p·2^(n+149)) < 2^23, and the integer k is
  ;;   exactly the bit pattern of that float, so it is rounded once, like the libm exp it replaces.
  ;; Rounding to an integer adds and subtracts 1.5·2^23 (or 2^23), cheaper than nearest + trunc.
  ;; pmin and pmax keep a NaN lane NaN (it is selected back at the end); clamping to [−105, 89] sends everything below the smallest
  ;; subnormal to +0 and everything above the largest float to +inf.
  (func $expRange (export "exp") (param $src i32) (param $dst i32) (param $count i32)
    (local $x v128) (local $at i32) (local $last i32) (local $fullEnd i32) (local $tail v128) (local $first i32)
    (local $t v128) (local $n v128) (local $ni v128) (local $r v128) (local $p v128) (local $nc v128)
    (local $half v128) (local $big v128) (local $k v128) (local $sub v128)
    ;; the last four elements go first, read before anything is written, so dst may equal src;
    ;; they are stored after the whole vectors, over the ones they overlap, with the same values
    (local.set $last (i32.shl (i32.sub (local.get $count) (i32.const 4)) (i32.const 2)))
    (local.set $fullEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $at (local.get $last))
    (local.set $first (i32.const 1))
    (loop $next
      (local.set $x (v128.load (i32.add (local.get $src) (local.get $at))))
        (local.set $x
          (f32x4.pmin
            (f32x4.pmax (local.get $x) (v128.const f32x4 -105 -105 -105 -105))
            (v128.const f32x4 89 89 89 89)))
        (local.set $t
          (f32x4.add
            (f32x4.mul (local.get $x) (v128.const f32x4 1.44269504088896341 1.44269504088896341 1.44269504088896341 1.44269504088896341))
            (v128.const f32x4 12582912 12582912 12582912 12582912)))
        (local.set $n (f32x4.sub (local.get $t) (v128.const f32x4 12582912 12582912 12582912 12582912)))
        (local.set $ni (i32x4.sub (local.get $t) (v128.const i32x4 0x4b400000 0x4b400000 0x4b400000 0x4b400000)))
        (local.set $r
          (f32x4.sub
            (f32x4.sub (local.get $x) (f32x4.mul (local.get $n) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
            (f32x4.mul (local.get $n) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
        (local.set $p (v128.const f32x4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3)))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3)))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2)))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1)))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1)))
        (local.set $p
          (f32x4.add
            (f32x4.add (f32x4.mul (local.get $p) (f32x4.mul (local.get $r) (local.get $r))) (local.get $r))
            (v128.const f32x4 1 1 1 1)))
        ;; normal results; the lanes the subnormal path takes compute 1·2^−126 here instead of a
        ;; subnormal p·2^−126 that would cost the assist even though it is thrown away
        (local.set $sub (i32x4.lt_s (local.get $ni) (v128.const i32x4 -126 -126 -126 -126)))
        (local.set $nc (i32x4.max_s (local.get $ni) (v128.const i32x4 -126 -126 -126 -126)))
        (local.set $half (i32x4.shr_s (local.get $nc) (i32.const 1)))
        (local.set $big
          (f32x4.mul
            (f32x4.mul
              (v128.bitselect (v128.const f32x4 1 1 1 1) (local.get $p) (local.get $sub))
              (i32x4.shl (i32x4.add (local.get $half) (v128.const i32x4 127 127 127 127)) (i32.const 23)))
            (i32x4.shl
              (i32x4.add (i32x4.sub (local.get $nc) (local.get $half)) (v128.const i32x4 127 127 127 127))
              (i32.const 23))))
        ;; subnormal results and zero: k = round(p·2^(n+149)) by adding 2^23, as bits
        (local.set $k
          (i32x4.sub
            (f32x4.add
              (f32x4.mul
                (local.get $p)
                (i32x4.shl
                  (i32x4.add (i32x4.min_s (local.get $ni) (v128.const i32x4 -127 -127 -127 -127)) (v128.const i32x4 276 276 276 276))
                  (i32.const 23)))
              (v128.const f32x4 8388608 8388608 8388608 8388608))
            (v128.const i32x4 0x4b000000 0x4b000000 0x4b000000 0x4b000000)))
        (local.set $big (v128.bitselect (local.get $k) (local.get $big) (local.get $sub)))
        ;; a NaN lane's n is whatever its bits say, so it is restored explicitly
        (local.set $x
          (v128.bitselect (local.get $x) (local.get $big) (f32x4.ne (local.get $x) (local.get $x))))
      (if (local.get $first)
        (then
          (local.set $tail (local.get $x))
          (local.set $first (i32.const 0))
          (local.set $at (i32.const 0)))
        (else
          (v128.store (i32.add (local.get $dst) (local.get $at)) (local.get $x))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))))
      (br_if $next (i32.lt_u (local.get $at) (local.get $fullEnd))))
    (v128.store (i32.add (local.get $dst) (local.get $last)) (local.get $tail)))

  ;; log on four lanes, Cephes logf's scheme: x = m·2^e with m in [√½, √2), log(m) by a degree-9
  ;; polynomial in m − 1, plus e·ln 2 in two parts. A subnormal x (a KDE sum can be one and still
  ;; matter once the occupancy is divided out) is read through its integer significand k, since
  ;; x = k·2^−149 and k converts to a normal float exactly; multiplying it by 2^23 instead would
  ;; cost a microcode assist per lane. log 0 = −inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN.
  (func $logRange (export "log") (param $src i32) (param $dst i32) (param $count i32)
    (local $x v128) (local $at i32) (local $last i32) (local $fullEnd i32) (local $tail v128) (local $first i32)
    (local $tiny v128) (local $bits v128) (local $e v128) (local $m v128) (local $small v128)
    (local $ef v128) (local $z v128) (local $y v128) (local $r v128)
    ;; the last four elements go first, read before anything is written, so dst may equal src;
    ;; they are stored after the whole vectors, over the ones they overlap, with the same values
    (local.set $last (i32.shl (i32.sub (local.get $count) (i32.const 4)) (i32.const 2)))
    (local.set $fullEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $at (local.get $last))
    (local.set $first (i32.const 1))
    (loop $next
      (local.set $x (v128.load (i32.add (local.get $src) (local.get $at))))
        (local.set $tiny (f32x4.lt (local.get $x) (v128.const f32x4 1.17549435e-38 1.17549435e-38 1.17549435e-38 1.17549435e-38)))
        (local.set $bits (v128.bitselect (f32x4.convert_i32x4_s (local.get $x)) (local.get $x) (local.get $tiny)))
        (local.set $e
          (i32x4.sub
            (i32x4.sub (i32x4.shr_u (local.get $bits) (i32.const 23)) (v128.const i32x4 126 126 126 126))
            (v128.and (local.get $tiny) (v128.const i32x4 149 149 149 149))))
        ;; mantissa with the exponent of 0.5: m in [0.5, 1)
        (local.set $m
          (v128.or
            (v128.and (local.get $bits) (v128.const i32x4 0x007fffff 0x007fffff 0x007fffff 0x007fffff))
            (v128.const i32x4 0x3f000000 0x3f000000 0x3f000000 0x3f000000)))
        ;; below √½: one off the exponent and m = 2m − 1; else m = m − 1 (the mask is −1 where true)
        (local.set $small (f32x4.lt (local.get $m) (v128.const f32x4 0.707106781186547524 0.707106781186547524 0.707106781186547524 0.707106781186547524)))
        (local.set $e (i32x4.add (local.get $e) (local.get $small)))
        (local.set $m
          (f32x4.sub
            (f32x4.add (local.get $m) (v128.and (local.get $m) (local.get $small)))
            (v128.const f32x4 1 1 1 1)))
        (local.set $ef (f32x4.convert_i32x4_s (local.get $e)))
        (local.set $z (f32x4.mul (local.get $m) (local.get $m)))
        (local.set $y (v128.const f32x4 7.0376836292e-2 7.0376836292e-2 7.0376836292e-2 7.0376836292e-2))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -1.1514610310e-1 -1.1514610310e-1 -1.1514610310e-1 -1.1514610310e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 1.1676998740e-1 1.1676998740e-1 1.1676998740e-1 1.1676998740e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -1.2420140846e-1 -1.2420140846e-1 -1.2420140846e-1 -1.2420140846e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 1.4249322787e-1 1.4249322787e-1 1.4249322787e-1 1.4249322787e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -1.6668057665e-1 -1.6668057665e-1 -1.6668057665e-1 -1.6668057665e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 2.0000714765e-1 2.0000714765e-1 2.0000714765e-1 2.0000714765e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -2.4999993993e-1 -2.4999993993e-1 -2.4999993993e-1 -2.4999993993e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 3.3333331174e-1 3.3333331174e-1 3.3333331174e-1 3.3333331174e-1)))
        (local.set $y (f32x4.mul (f32x4.mul (local.get $y) (local.get $m)) (local.get $z)))
        (local.set $y (f32x4.add (local.get $y) (f32x4.mul (local.get $ef) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
        (local.set $y (f32x4.sub (local.get $y) (f32x4.mul (local.get $z) (v128.const f32x4 0.5 0.5 0.5 0.5))))
        (local.set $r
          (f32x4.add
            (f32x4.add (local.get $m) (local.get $y))
            (f32x4.mul (local.get $ef) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375))))
        (local.set $r (v128.bitselect (v128.const f32x4 -inf -inf -inf -inf) (local.get $r) (f32x4.eq (local.get $x) (v128.const f32x4 0 0 0 0))))
        (local.set $r (v128.bitselect (v128.const f32x4 inf inf inf inf) (local.get $r) (f32x4.eq (local.get $x) (v128.const f32x4 inf inf inf inf))))
        (local.set $x
          (v128.bitselect
            (v128.const f32x4 nan nan nan nan)
            (local.get $r)
            (v128.or
              (f32x4.lt (local.get $x) (v128.const f32x4 0 0 0 0))
              (f32x4.ne (local.get $x) (local.get $x)))))
      (if (local.get $first)
        (then
          (local.set $tail (local.get $x))
          (local.set $first (i32.const 0))
          ;; whole pairs of vectors first, then at most one single vector below
          (call $logPairs (local.get $src) (local.get $dst) (i32.and (local.get $count) (i32.const -8)))
          (local.set $at (i32.shl (i32.and (local.get $count) (i32.const -8)) (i32.const 2))))
        (else
          (v128.store (i32.add (local.get $dst) (local.get $at)) (local.get $x))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))))
      (br_if $next (i32.lt_u (local.get $at) (local.get $fullEnd))))
    (v128.store (i32.add (local.get $dst) (local.get $last)) (local.get $tail)))

  ;; log over count floats, count a multiple of 8, two vectors per iteration: each vector's
  ;; polynomial is one long chain of dependent operations, and two independent chains keep the
  ;; floating-point units busier than one. Same operations per lane as $logRange, so the same bits.
  (func $logPairs (param $src i32) (param $dst i32) (param $count i32)
    (local $at i32) (local $end i32)
    (local $x v128) (local $tiny v128) (local $bits v128) (local $e v128) (local $m v128) (local $small v128)
    (local $ef v128) (local $z v128) (local $y v128) (local $r v128)
    (local $xB v128) (local $tinyB v128) (local $bitsB v128) (local $eB v128) (local $mB v128) (local $smallB v128)
    (local $efB v128) (local $zB v128) (local $yB v128) (local $rB v128)
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $x (v128.load (i32.add (local.get $src) (local.get $at))))
        (local.set $xB (v128.load offset=16 (i32.add (local.get $src) (local.get $at))))
        (local.set $tiny (f32x4.lt (local.get $x) (v128.const f32x4 1.17549435e-38 1.17549435e-38 1.17549435e-38 1.17549435e-38)))
        (local.set $bits (v128.bitselect (f32x4.convert_i32x4_s (local.get $x)) (local.get $x) (local.get $tiny)))
        (local.set $e
          (i32x4.sub
            (i32x4.sub (i32x4.shr_u (local.get $bits) (i32.const 23)) (v128.const i32x4 126 126 126 126))
            (v128.and (local.get $tiny) (v128.const i32x4 149 149 149 149))))
        ;; mantissa with the exponent of 0.5: m in [0.5, 1)
        (local.set $m
          (v128.or
            (v128.and (local.get $bits) (v128.const i32x4 0x007fffff 0x007fffff 0x007fffff 0x007fffff))
            (v128.const i32x4 0x3f000000 0x3f000000 0x3f000000 0x3f000000)))
        ;; below √½: one off the exponent and m = 2m − 1; else m = m − 1 (the mask is −1 where true)
        (local.set $small (f32x4.lt (local.get $m) (v128.const f32x4 0.707106781186547524 0.707106781186547524 0.707106781186547524 0.707106781186547524)))
        (local.set $e (i32x4.add (local.get $e) (local.get $small)))
        (local.set $m
          (f32x4.sub
            (f32x4.add (local.get $m) (v128.and (local.get $m) (local.get $small)))
            (v128.const f32x4 1 1 1 1)))
        (local.set $ef (f32x4.convert_i32x4_s (local.get $e)))
        (local.set $z (f32x4.mul (local.get $m) (local.get $m)))
        (local.set $y (v128.const f32x4 7.0376836292e-2 7.0376836292e-2 7.0376836292e-2 7.0376836292e-2))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -1.1514610310e-1 -1.1514610310e-1 -1.1514610310e-1 -1.1514610310e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 1.1676998740e-1 1.1676998740e-1 1.1676998740e-1 1.1676998740e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -1.2420140846e-1 -1.2420140846e-1 -1.2420140846e-1 -1.2420140846e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 1.4249322787e-1 1.4249322787e-1 1.4249322787e-1 1.4249322787e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -1.6668057665e-1 -1.6668057665e-1 -1.6668057665e-1 -1.6668057665e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 2.0000714765e-1 2.0000714765e-1 2.0000714765e-1 2.0000714765e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 -2.4999993993e-1 -2.4999993993e-1 -2.4999993993e-1 -2.4999993993e-1)))
        (local.set $y (f32x4.relaxed_madd (local.get $y) (local.get $m) (v128.const f32x4 3.3333331174e-1 3.3333331174e-1 3.3333331174e-1 3.3333331174e-1)))
        (local.set $y (f32x4.mul (f32x4.mul (local.get $y) (local.get $m)) (local.get $z)))
        (local.set $y (f32x4.add (local.get $y) (f32x4.mul (local.get $ef) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
        (local.set $y (f32x4.sub (local.get $y) (f32x4.mul (local.get $z) (v128.const f32x4 0.5 0.5 0.5 0.5))))
        (local.set $r
          (f32x4.add
            (f32x4.add (local.get $m) (local.get $y))
            (f32x4.mul (local.get $ef) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375))))
        (local.set $r (v128.bitselect (v128.const f32x4 -inf -inf -inf -inf) (local.get $r) (f32x4.eq (local.get $x) (v128.const f32x4 0 0 0 0))))
        (local.set $r (v128.bitselect (v128.const f32x4 inf inf inf inf) (local.get $r) (f32x4.eq (local.get $x) (v128.const f32x4 inf inf inf inf))))
        (local.set $x
          (v128.bitselect
            (v128.const f32x4 nan nan nan nan)
            (local.get $r)
            (v128.or
              (f32x4.lt (local.get $x) (v128.const f32x4 0 0 0 0))
              (f32x4.ne (local.get $x) (local.get $x)))))
        (local.set $tinyB (f32x4.lt (local.get $xB) (v128.const f32x4 1.17549435e-38 1.17549435e-38 1.17549435e-38 1.17549435e-38)))
        (local.set $bitsB (v128.bitselect (f32x4.convert_i32x4_s (local.get $xB)) (local.get $xB) (local.get $tinyB)))
        (local.set $eB
          (i32x4.sub
            (i32x4.sub (i32x4.shr_u (local.get $bitsB) (i32.const 23)) (v128.const i32x4 126 126 126 126))
            (v128.and (local.get $tinyB) (v128.const i32x4 149 149 149 149))))
        ;; mantissa with the exponent of 0.5: m in [0.5, 1)
        (local.set $mB
          (v128.or
            (v128.and (local.get $bitsB) (v128.const i32x4 0x007fffff 0x007fffff 0x007fffff 0x007fffff))
            (v128.const i32x4 0x3f000000 0x3f000000 0x3f000000 0x3f000000)))
        ;; below √½: one off the exponent and m = 2m − 1; else m = m − 1 (the mask is −1 where true)
        (local.set $smallB (f32x4.lt (local.get $mB) (v128.const f32x4 0.707106781186547524 0.707106781186547524 0.707106781186547524 0.707106781186547524)))
        (local.set $eB (i32x4.add (local.get $eB) (local.get $smallB)))
        (local.set $mB
          (f32x4.sub
            (f32x4.add (local.get $mB) (v128.and (local.get $mB) (local.get $smallB)))
            (v128.const f32x4 1 1 1 1)))
        (local.set $efB (f32x4.convert_i32x4_s (local.get $eB)))
        (local.set $zB (f32x4.mul (local.get $mB) (local.get $mB)))
        (local.set $yB (v128.const f32x4 7.0376836292e-2 7.0376836292e-2 7.0376836292e-2 7.0376836292e-2))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 -1.1514610310e-1 -1.1514610310e-1 -1.1514610310e-1 -1.1514610310e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 1.1676998740e-1 1.1676998740e-1 1.1676998740e-1 1.1676998740e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 -1.2420140846e-1 -1.2420140846e-1 -1.2420140846e-1 -1.2420140846e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 1.4249322787e-1 1.4249322787e-1 1.4249322787e-1 1.4249322787e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 -1.6668057665e-1 -1.6668057665e-1 -1.6668057665e-1 -1.6668057665e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 2.0000714765e-1 2.0000714765e-1 2.0000714765e-1 2.0000714765e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 -2.4999993993e-1 -2.4999993993e-1 -2.4999993993e-1 -2.4999993993e-1)))
        (local.set $yB (f32x4.relaxed_madd (local.get $yB) (local.get $mB) (v128.const f32x4 3.3333331174e-1 3.3333331174e-1 3.3333331174e-1 3.3333331174e-1)))
        (local.set $yB (f32x4.mul (f32x4.mul (local.get $yB) (local.get $mB)) (local.get $zB)))
        (local.set $yB (f32x4.add (local.get $yB) (f32x4.mul (local.get $efB) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
        (local.set $yB (f32x4.sub (local.get $yB) (f32x4.mul (local.get $zB) (v128.const f32x4 0.5 0.5 0.5 0.5))))
        (local.set $rB
          (f32x4.add
            (f32x4.add (local.get $mB) (local.get $yB))
            (f32x4.mul (local.get $efB) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375))))
        (local.set $rB (v128.bitselect (v128.const f32x4 -inf -inf -inf -inf) (local.get $rB) (f32x4.eq (local.get $xB) (v128.const f32x4 0 0 0 0))))
        (local.set $rB (v128.bitselect (v128.const f32x4 inf inf inf inf) (local.get $rB) (f32x4.eq (local.get $xB) (v128.const f32x4 inf inf inf inf))))
        (local.set $xB
          (v128.bitselect
            (v128.const f32x4 nan nan nan nan)
            (local.get $rB)
            (v128.or
              (f32x4.lt (local.get $xB) (v128.const f32x4 0 0 0 0))
              (f32x4.ne (local.get $xB) (local.get $xB)))))
        (v128.store (i32.add (local.get $dst) (local.get $at)) (local.get $x))
        (v128.store offset=16 (i32.add (local.get $dst) (local.get $at)) (local.get $xB))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (br $next))))


  ;; Gaussian kernel matrix, (n × m), m ≥ 4: dst[i, j] = c − ½·Σ_k (a[i, k] − bt[k, j])², or its exp
  ;; when $linear is not 0. a (n × d) and bt (d × m) are already divided by the kernel widths; bt is
  ;; transposed so that four neighbouring j are one vector load. The sum over k runs in order from
  ;; zero, then the product with −½ and the sum with c, the same float operations in the same order
  ;; as the op graph squaredDifference → sum → mul → add that this replaces.
  (func $gauss (export "gauss") (param $a i32) (param $bt i32) (param $n i32) (param $m i32) (param $d i32)
        (param $c f32) (param $dst i32) (param $linear i32)
    (local $i i32) (local $at i32) (local $k i32) (local $last i32) (local $rowBytes i32)
    (local $arow i32) (local $orow i32) (local $acc v128) (local $diff v128) (local $v v128) (local $cv v128)
    (local $x0 v128) (local $x1 v128) (local $b1 i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    (local.set $cv (f32x4.splat (local.get $c)))
    (local.set $b1 (i32.add (local.get $bt) (local.get $rowBytes)))
    (local.set $arow (local.get $a))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        ;; one or two dimensions (positions, the presets' marks): the row's values stay in registers
        (if (i32.lt_u (i32.sub (local.get $d) (i32.const 1)) (i32.const 2))
          (then
            (local.set $x0 (v128.load32_splat (local.get $arow)))
            (if (i32.eq (local.get $d) (i32.const 2)) (then (local.set $x1 (v128.load32_splat offset=4 (local.get $arow)))))))
        (local.set $at (i32.const 0))
        (block $colsDone
          (loop $col
            (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
            ;; 0 + diff² is diff² exactly: every width sums in the same order
            (if (i32.lt_u (i32.sub (local.get $d) (i32.const 1)) (i32.const 2))
              (then
                (local.set $diff (f32x4.sub (local.get $x0) (v128.load (i32.add (local.get $bt) (local.get $at)))))
                (local.set $acc (f32x4.mul (local.get $diff) (local.get $diff)))
                (if (i32.eq (local.get $d) (i32.const 2))
                  (then
                    (local.set $diff (f32x4.sub (local.get $x1) (v128.load (i32.add (local.get $b1) (local.get $at)))))
                    (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff)))))))
              (else
                (local.set $acc (v128.const f32x4 0 0 0 0))
                (local.set $k (i32.const 0))
                (block $dimsDone
                  (loop $dim
                    (br_if $dimsDone (i32.ge_u (local.get $k) (local.get $d)))
                    (local.set $diff
                      (f32x4.sub
                        (f32x4.splat (f32.load (i32.add (local.get $arow) (i32.shl (local.get $k) (i32.const 2)))))
                        (v128.load
                          (i32.add
                            (i32.add (local.get $bt) (i32.mul (local.get $k) (local.get $rowBytes)))
                            (local.get $at)))))
                    (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
                    (local.set $k (i32.add (local.get $k) (i32.const 1)))
                    (br $dim)))))
            (local.set $v (f32x4.add (f32x4.mul (local.get $acc) (v128.const f32x4 -0.5 -0.5 -0.5 -0.5)) (local.get $cv)))
            (v128.store (i32.add (local.get $orow) (local.get $at)) (local.get $v))
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $last)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $col)))
        ;; exp once the row is written and still in cache: a call per vector would cost as much as the exp
        (if (local.get $linear) (then (call $expRange (local.get $orow) (local.get $orow) (local.get $m))))
        (local.set $arow (i32.add (local.get $arow) (i32.shl (local.get $d) (i32.const 2))))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))
  ;; Row helpers for columnScaledExp. The first three are idempotent on a lane, so their last
  ;; vector may overlap the one before it; the fourth accumulates, so its 0–3 leftover lanes go one
  ;; at a time.
  (func $fill (param $dst i32) (param $bytes i32) (param $v v128)
    (local $at i32) (local $last i32)
    (local.set $last (i32.sub (local.get $bytes) (i32.const 16)))
    (loop $next
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $dst) (local.get $at)) (local.get $v))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))

  (func $maxInto (param $acc i32) (param $row i32) (param $bytes i32)
    (local $at i32) (local $last i32)
    (local.set $last (i32.sub (local.get $bytes) (i32.const 16)))
    (loop $next
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $acc) (local.get $at))
        (f32x4.max
          (v128.load (i32.add (local.get $acc) (local.get $at)))
          (v128.load (i32.add (local.get $row) (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))

  (func $subtract (param $a i32) (param $b i32) (param $dst i32) (param $bytes i32)
    (local $at i32) (local $last i32)
    (local.set $last (i32.sub (local.get $bytes) (i32.const 16)))
    (loop $next
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $dst) (local.get $at))
        (f32x4.sub
          (v128.load (i32.add (local.get $a) (local.get $at)))
          (v128.load (i32.add (local.get $b) (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))

  ;; sum += row, then row *= scale
  (func $accumulateAndScale (param $row i32) (param $sum i32) (param $scale i32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $v v128) (local $f f32)
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (local.set $v (v128.load (i32.add (local.get $row) (local.get $at))))
        (v128.store (i32.add (local.get $sum) (local.get $at))
          (f32x4.add (v128.load (i32.add (local.get $sum) (local.get $at))) (local.get $v)))
        (v128.store (i32.add (local.get $row) (local.get $at))
          (f32x4.mul (local.get $v) (v128.load (i32.add (local.get $scale) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $f (f32.load (i32.add (local.get $row) (local.get $at))))
        (f32.store (i32.add (local.get $sum) (local.get $at))
          (f32.add (f32.load (i32.add (local.get $sum) (local.get $at))) (local.get $f)))
        (f32.store (i32.add (local.get $row) (local.get $at))
          (f32.mul (local.get $f) (f32.load (i32.add (local.get $scale) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))

  ;; The linear position kernel with its per-column rescaling (see ops/linearPositionKernel.ts),
  ;; x (n × m), m ≥ 4: colMax[j] = max_i x[i, j]; s = exp(x − colMax) summed into
  ;; colSum[j] in row order; dst = s·exp(colMax). expMax (m floats) is scratch from the caller.
  ;; Each row is shifted, exponentiated, summed and scaled while it is in cache.
  ;; The column sums go through a partial sum of at most 256 rows (partial, m floats of scratch), so
  ;; rounding grows with 256 + n/256 terms instead of n (85 000 spikes on a production tetrode).
  ;; With $flush above 0, s below it is 0 (model/flush.ts says when that is safe) and the exp needs
  ;; no subnormal path.
  (func (export "columnScaledExp") (param $x i32) (param $n i32) (param $m i32) (param $colMax i32)
        (param $colSum i32) (param $expMax i32) (param $dst i32) (param $partial i32) (param $flush f32)
    (local $i i32) (local $rowBytes i32) (local $xrow i32) (local $orow i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (call $fill (local.get $colMax) (local.get $rowBytes) (v128.const f32x4 -inf -inf -inf -inf))
    (call $fill (local.get $colSum) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))
    (local.set $xrow (local.get $x))
    (block $maxDone
      (loop $maxRow
        (br_if $maxDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $maxInto (local.get $colMax) (local.get $xrow) (local.get $rowBytes))
        (local.set $xrow (i32.add (local.get $xrow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $maxRow)))
    (call $expRange (local.get $colMax) (local.get $expMax) (local.get $m))
    (local.set $i (i32.const 0))
    (local.set $xrow (local.get $x))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $scaledRowIntoSums (local.get $xrow) (local.get $orow) (local.get $i) (local.get $n) (local.get $m)
          (local.get $colMax) (local.get $expMax) (local.get $partial) (local.get $colSum) (local.get $flush))
        (local.set $xrow (i32.add (local.get $xrow) (local.get $rowBytes)))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; Row i of n of the column-scaled kernel, columnScaledExp's second pass: dst = exp(src − colMax),
  ;; 0 below $flush when it is above 0, added to the partial sum of its 256 rows (zeroed at rows 0,
  ;; 256, …; added into colSum after rows 255, 511, … and the last), then dst ·= expMax. src may be
  ;; dst when m is a multiple of 4 (no vector of the subtraction overlaps another).
  (func $scaledRowIntoSums (param $src i32) (param $dst i32) (param $i i32) (param $n i32) (param $m i32)
        (param $colMax i32) (param $expMax i32) (param $partial i32) (param $colSum i32) (param $flush f32)
    (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (call $subtract (local.get $src) (local.get $colMax) (local.get $dst) (local.get $rowBytes))
    (if (f32.gt (local.get $flush) (f32.const 0))
      (then (call $expShiftedFlushed (local.get $dst) (f32.const 0) (local.get $flush) (local.get $m)))
      (else (call $expRange (local.get $dst) (local.get $dst) (local.get $m))))
    (if (i32.eqz (i32.and (local.get $i) (i32.const 255)))
      (then (call $fill (local.get $partial) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))))
    (call $accumulateAndScale (local.get $dst) (local.get $partial) (local.get $expMax) (local.get $m))
    (if (i32.or
          (i32.eqz (i32.and (i32.add (local.get $i) (i32.const 1)) (i32.const 255)))
          (i32.eq (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
      (then (call $addInto (local.get $colSum) (local.get $partial) (local.get $m)))))

  ;; colMax[j] = max_i of $gauss's log kernel of samples a (n × q) at points bt (q × m), each row
  ;; formed in `row` (m floats of scratch). The callers skip it when the caller has the maxima
  ;; already ($maxGiven: for one-dimensional samples, the nearest sample's value, bit for bit).
  (func $columnMaxima (param $a i32) (param $n i32) (param $q i32) (param $bt i32) (param $m i32) (param $c f32)
    (param $colMax i32) (param $row i32)
    (local $i i32) (local $rowBytes i32) (local $sampleBytes i32) (local $arow i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $sampleBytes (i32.shl (local.get $q) (i32.const 2)))
    (call $fill (local.get $colMax) (local.get $rowBytes) (v128.const f32x4 -inf -inf -inf -inf))
    (local.set $arow (local.get $a))
    (block $maxDone
      (loop $maxRow
        (br_if $maxDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $row) (i32.const 0))
        (call $maxInto (local.get $colMax) (local.get $row) (local.get $rowBytes))
        (local.set $arow (i32.add (local.get $arow) (local.get $sampleBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $maxRow))))

  ;; The column sums of a Gaussian KDE part without its kernel in memory, m ≥ 4: for samples a
  ;; (n × q) and evaluation points bt (q × m), both over the kernel widths, logK[i, j] as $gauss forms
  ;; it; colMax[j] = max_i logK[i, j] and colSum[j] = Σ_i exp(logK[i, j] − colMax[j]), in row order
  ;; through partial sums of 256 rows as columnScaledExp adds them. Each row is formed twice (for the
  ;; maximum, then for the sum) in `row` (m floats of scratch; `shifted` and `partial` m more each)
  ;; instead of being stored; with $maxGiven the caller has written colMax (the nearest sample's
  ;; value, for one-dimensional samples) and each row is formed once. Terms below 2^−63 of their
  ;; column's maximum are dropped (the flushed exp): a column's sum is at least 1, so at most n·2^−63
  ;; of it, far below a float32 rounding.
  (func (export "kdeColumnSums") (param $a i32) (param $n i32) (param $q i32) (param $bt i32) (param $m i32) (param $c f32)
    (param $colMax i32) (param $colSum i32) (param $row i32) (param $shifted i32) (param $partial i32) (param $maxGiven i32)
    (local $i i32) (local $rowBytes i32) (local $arow i32) (local $sampleBytes i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $sampleBytes (i32.shl (local.get $q) (i32.const 2)))
    (call $fill (local.get $colSum) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))
    (if (i32.eqz (local.get $maxGiven)) (then (call $columnMaxima (local.get $a) (local.get $n) (local.get $q) (local.get $bt) (local.get $m)
      (local.get $c) (local.get $colMax) (local.get $row))))
    (local.set $i (i32.const 0))
    (local.set $arow (local.get $a))
    (block $rowsDone
      (loop $sumRow
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $row) (i32.const 0))
        (call $subtract (local.get $row) (local.get $colMax) (local.get $shifted) (local.get $rowBytes))
        (call $expShiftedFlushed (local.get $shifted) (f32.const 0) (f32.const 0x1p-63) (local.get $m))
        (if (i32.eqz (i32.and (local.get $i) (i32.const 255)))
          (then (call $fill (local.get $partial) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))))
        (call $addInto (local.get $partial) (local.get $shifted) (local.get $m))
        (local.set $arow (i32.add (local.get $arow) (local.get $sampleBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.or (i32.eqz (i32.and (local.get $i) (i32.const 255))) (i32.eq (local.get $i) (local.get $n)))
          (then (call $addInto (local.get $colSum) (local.get $partial) (local.get $m))))
        (br $sumRow))))

  ;; sum += part, count floats
  (func $addInto (param $sum i32) (param $part i32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32)
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (v128.store (i32.add (local.get $sum) (local.get $at))
          (f32x4.add (v128.load (i32.add (local.get $sum) (local.get $at))) (v128.load (i32.add (local.get $part) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (f32.store (i32.add (local.get $sum) (local.get $at))
          (f32.add (f32.load (i32.add (local.get $sum) (local.get $at))) (f32.load (i32.add (local.get $part) (local.get $at)))))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))
  ;; row −= s, in place: a vector loop, then the 0–3 leftover lanes one at a time (an overlapping
  ;; last vector would subtract twice)
  (func $subtractScalarInPlace (param $row i32) (param $s f32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $sv v128)
    (local.set $sv (f32x4.splat (local.get $s)))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (v128.store (i32.add (local.get $row) (local.get $at))
          (f32x4.sub (v128.load (i32.add (local.get $row) (local.get $at))) (local.get $sv)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (f32.store (i32.add (local.get $row) (local.get $at))
          (f32.sub (f32.load (i32.add (local.get $row) (local.get $at))) (local.get $s)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))

  ;; row += vec in place (a vector loop, then the 0–3 leftover lanes one at a time: an overlapping
  ;; last vector would add twice), count ≥ 4, returning the largest sum
  (func $addInPlaceMax (param $row i32) (param $vec i32) (param $count i32) (result f32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $v v128) (local $mx v128) (local $top f32) (local $f f32)
    (local.set $mx (v128.const f32x4 -inf -inf -inf -inf))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (local.set $v (f32x4.add (v128.load (i32.add (local.get $row) (local.get $at))) (v128.load (i32.add (local.get $vec) (local.get $at)))))
        (v128.store (i32.add (local.get $row) (local.get $at)) (local.get $v))
        (local.set $mx (f32x4.max (local.get $mx) (local.get $v)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (local.set $top
      (f32.max
        (f32.max (f32x4.extract_lane 0 (local.get $mx)) (f32x4.extract_lane 1 (local.get $mx)))
        (f32.max (f32x4.extract_lane 2 (local.get $mx)) (f32x4.extract_lane 3 (local.get $mx)))))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $f (f32.add (f32.load (i32.add (local.get $row) (local.get $at))) (f32.load (i32.add (local.get $vec) (local.get $at)))))
        (f32.store (i32.add (local.get $row) (local.get $at)) (local.get $f))
        (local.set $top (f32.max (local.get $top) (local.get $f)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next)))
    (local.get $top))

  ;; t[k, i] = logKmark[k, i] + shift[i] for one block (n × m, m ≥ 4), logKmark as $gauss forms
  ;; it (the same sums in the same order), returning max t. Marks of four features (tetrodes) keep
  ;; the row's four values and the four feature rows' addresses in registers, in one pass whose last
  ;; vector may overlap the one before it (same values); other widths go through $gauss a row at a time.
  (func $shiftedLogKernel (param $a i32) (param $bt i32) (param $n i32) (param $m i32) (param $d i32) (param $c f32)
    (param $shift i32) (param $dst i32) (result f32)
    (local $i i32) (local $at i32) (local $last i32) (local $rowBytes i32) (local $arow i32) (local $orow i32)
    (local $b1 i32) (local $b2 i32) (local $b3 i32) (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    (local $diff v128) (local $acc v128) (local $v v128) (local $cv v128) (local $mx v128)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    (local.set $b1 (i32.add (local.get $bt) (local.get $rowBytes)))
    (local.set $b2 (i32.add (local.get $b1) (local.get $rowBytes)))
    (local.set $b3 (i32.add (local.get $b2) (local.get $rowBytes)))
    (local.set $cv (f32x4.splat (local.get $c)))
    (local.set $mx (v128.const f32x4 -inf -inf -inf -inf))
    (local.set $arow (local.get $a))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.eq (local.get $d) (i32.const 4))
          (then
            (local.set $x0 (v128.load32_splat (local.get $arow)))
            (local.set $x1 (v128.load32_splat offset=4 (local.get $arow)))
            (local.set $x2 (v128.load32_splat offset=8 (local.get $arow)))
            (local.set $x3 (v128.load32_splat offset=12 (local.get $arow)))
            (local.set $at (i32.const 0))
            (loop $col
              (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
              ;; 0 + diff² is diff² exactly ($gauss starts its sum from 0)
              (local.set $diff (f32x4.sub (local.get $x0) (v128.load (i32.add (local.get $bt) (local.get $at)))))
              (local.set $acc (f32x4.mul (local.get $diff) (local.get $diff)))
              (local.set $diff (f32x4.sub (local.get $x1) (v128.load (i32.add (local.get $b1) (local.get $at)))))
              (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
              (local.set $diff (f32x4.sub (local.get $x2) (v128.load (i32.add (local.get $b2) (local.get $at)))))
              (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
              (local.set $diff (f32x4.sub (local.get $x3) (v128.load (i32.add (local.get $b3) (local.get $at)))))
              (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $diff) (local.get $diff))))
              (local.set $v
                (f32x4.add
                  (f32x4.add (f32x4.mul (local.get $acc) (v128.const f32x4 -0.5 -0.5 -0.5 -0.5)) (local.get $cv))
                  (v128.load (i32.add (local.get $shift) (local.get $at)))))
              (v128.store (i32.add (local.get $orow) (local.get $at)) (local.get $v))
              (local.set $mx (f32x4.max (local.get $mx) (local.get $v)))
              (local.set $at (i32.add (local.get $at) (i32.const 16)))
              (br_if $col (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16))))))
          (else
            (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $d) (local.get $c) (local.get $orow) (i32.const 0))
            (local.set $mx (f32x4.max (local.get $mx) (f32x4.splat (call $addInPlaceMax (local.get $orow) (local.get $shift) (local.get $m)))))))
        (local.set $arow (i32.add (local.get $arow) (i32.shl (local.get $d) (i32.const 2))))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row)))
    (f32.max
      (f32.max (f32x4.extract_lane 0 (local.get $mx)) (f32x4.extract_lane 1 (local.get $mx)))
      (f32.max (f32x4.extract_lane 2 (local.get $mx)) (f32x4.extract_lane 3 (local.get $mx)))))

  ;; row = exp(row − shift) in place, count ≥ 4, every entry ≤ shift, results below $flush (2^−63 or
  ;; more) set to 0. No kept result is subnormal, so 2^n is one exponent field and $expRange's
  ;; subnormal path is not needed: every kept lane has the bits $expRange gives it (p·2^n, both
  ;; exact, rounds once); the clamp at −87 keeps n ≥ −126 for the dropped ones. A NaN lane stays
  ;; NaN. The body is written out in the loop (a call per vector would cost as much as the exp); the
  ;; last vector goes first and is stored last, over the lanes it shares with the one before it.
  (func $expShiftedFlushed (param $row i32) (param $shift f32) (param $flush f32) (param $count i32)
    (local $at i32) (local $last i32) (local $sv v128) (local $fv v128) (local $tail v128) (local $first i32)
    (local $x v128) (local $t v128) (local $n v128) (local $r v128) (local $p v128)
    (local.set $sv (f32x4.splat (local.get $shift)))
    (local.set $fv (f32x4.splat (local.get $flush)))
    (local.set $last (i32.shl (i32.sub (local.get $count) (i32.const 4)) (i32.const 2)))
    (local.set $at (local.get $last))
    (local.set $first (i32.const 1))
    (loop $next
      (local.set $x
        (f32x4.pmax
          (f32x4.sub (v128.load (i32.add (local.get $row) (local.get $at))) (local.get $sv))
          (v128.const f32x4 -87 -87 -87 -87)))
      (local.set $t
        (f32x4.add
          (f32x4.mul (local.get $x) (v128.const f32x4 1.44269504088896341 1.44269504088896341 1.44269504088896341 1.44269504088896341))
          (v128.const f32x4 12582912 12582912 12582912 12582912)))
      (local.set $n (f32x4.sub (local.get $t) (v128.const f32x4 12582912 12582912 12582912 12582912)))
      (local.set $r
        (f32x4.sub
          (f32x4.sub (local.get $x) (f32x4.mul (local.get $n) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
          (f32x4.mul (local.get $n) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
      (local.set $p (v128.const f32x4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4 1.9875691500e-4))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3 1.3981999507e-3)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3 8.3334519073e-3)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2 4.1665795894e-2)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1 1.6666665459e-1)))
      (local.set $p (f32x4.relaxed_madd (local.get $p) (local.get $r) (v128.const f32x4 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1 5.0000001201e-1)))
      (local.set $p
        (f32x4.add
          (f32x4.add (f32x4.mul (local.get $p) (f32x4.mul (local.get $r) (local.get $r))) (local.get $r))
          (v128.const f32x4 1 1 1 1)))
      ;; p·2^n, 2^n from the integer n that t's low bits hold, then the flush
      (local.set $x
        (f32x4.mul (local.get $p)
          (i32x4.shl
            (i32x4.add (i32x4.sub (local.get $t) (v128.const i32x4 0x4b400000 0x4b400000 0x4b400000 0x4b400000)) (v128.const i32x4 127 127 127 127))
            (i32.const 23))))
      (local.set $x (v128.andnot (local.get $x) (f32x4.lt (local.get $x) (local.get $fv))))
      (if (local.get $first)
        (then
          (local.set $tail (local.get $x))
          (local.set $first (i32.const 0))
          (local.set $at (i32.const 0)))
        (else
          (v128.store (i32.add (local.get $row) (local.get $at)) (local.get $x))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))))
      (br_if $next (i32.lt_u (local.get $at) (local.get $last))))
    (v128.store (i32.add (local.get $row) (local.get $last)) (local.get $tail)))

  ;; dst = exp(src) with results below $flush dropped, count ≥ 4: $expShiftedFlushed as the KDE,
  ;; position-factor and weights kernels run it, exported so the calibration can rate it (it outruns
  ;; the general exp, which keeps subnormal results). The copy first is part of what is timed.
  (func (export "expFlushed") (param $src i32) (param $dst i32) (param $count i32) (param $flush f32)
    (local $at i32) (local $last i32)
    (local.set $last (i32.shl (i32.sub (local.get $count) (i32.const 4)) (i32.const 2)))
    (loop $copy
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (v128.store (i32.add (local.get $dst) (local.get $at)) (v128.load (i32.add (local.get $src) (local.get $at))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $copy (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16)))))
    (call $expShiftedFlushed (local.get $dst) (f32.const 0) (local.get $flush) (local.get $count)))

  ;; The compensated strategy's weights for one block and one encoding chunk (kde-spec §7e), m ≥ 4.
  ;; With a_i = rowMax[i] and c_i = a_i + max_k logKmark[k, i] − log E, the spec's weight
  ;; exp(logKmark[k, i] − b_i)·exp(c_i − C*) is exp(t[k, i] − T) with t = logKmark + a_i and
  ;; T = max t = C* + log E: b_i cancels, so one exp per weight and no column maxima. Returns C*.
  ;; Weights below $flush (when it is above 0) are set to 0: see compensated.ts for when that is safe.
  (func (export "compensatedWeights") (param $a i32) (param $bt i32) (param $n i32) (param $m i32) (param $d i32)
        (param $c f32) (param $rowMax i32) (param $logE f32) (param $w i32) (param $flush f32) (result f32)
    (local $i i32) (local $rowBytes i32) (local $row i32) (local $top f32)
    (local.set $top (call $shiftedLogKernel (local.get $a) (local.get $bt) (local.get $n) (local.get $m) (local.get $d) (local.get $c)
      (local.get $rowMax) (local.get $w)))
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $row (local.get $w))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (if (f32.gt (local.get $flush) (f32.const 0))
          (then (call $expShiftedFlushed (local.get $row) (local.get $top) (local.get $flush) (local.get $m)))
          (else
            (call $subtractScalarInPlace (local.get $row) (local.get $top) (local.get $m))
            (call $expRange (local.get $row) (local.get $row) (local.get $m))))
        (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowLoop)))
    (f32.sub (local.get $top) (local.get $logE)))

  ;; row = max((row + off) + bias, floor), bias a vector of count floats, in place: the series'
  ;; epilogue in the op graph's order (add the row's offset, add the bin's bias, the floor).
  (func $offsetBiasFloor (param $row i32) (param $off f32) (param $bias i32) (param $floor f32) (param $count i32)
    (local $at i32) (local $vectorEnd i32) (local $end i32) (local $ov v128) (local $fv v128)
    (local.set $ov (f32x4.splat (local.get $off)))
    (local.set $fv (f32x4.splat (local.get $floor)))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $count) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $vectorsDone
      (loop $next
        (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
        (v128.store (i32.add (local.get $row) (local.get $at))
          (f32x4.max
            (f32x4.add
              (f32x4.add (v128.load (i32.add (local.get $row) (local.get $at))) (local.get $ov))
              (v128.load (i32.add (local.get $bias) (local.get $at))))
            (local.get $fv)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (block $lanesDone
      (loop $next
        (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
        (f32.store (i32.add (local.get $row) (local.get $at))
          (f32.max
            (f32.add
              (f32.add (f32.load (i32.add (local.get $row) (local.get $at))) (local.get $off))
              (f32.load (i32.add (local.get $bias) (local.get $at))))
            (local.get $floor)))
        (local.set $at (i32.add (local.get $at) (i32.const 4)))
        (br $next))))

  ;; dst = max(src + bias, floor) for n rows of m, bias m floats: the strategies' epilogue in the op
  ;; graph's order (add the bin's bias, then the floor), one pass where tfjs's broadcasting maximum
  ;; alone costs several times an add.
  (func (export "biasFloor") (param $src i32) (param $bias i32) (param $n i32) (param $m i32) (param $floor f32) (param $dst i32)
    (local $i i32) (local $at i32) (local $vectorEnd i32) (local $end i32) (local $fv v128)
    (local.set $fv (f32x4.splat (local.get $floor)))
    (local.set $vectorEnd (i32.shl (i32.and (local.get $m) (i32.const -4)) (i32.const 2)))
    (local.set $end (i32.shl (local.get $m) (i32.const 2)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.const 0))
        (block $vectorsDone
          (loop $next
            (br_if $vectorsDone (i32.ge_u (local.get $at) (local.get $vectorEnd)))
            (v128.store (i32.add (local.get $dst) (local.get $at))
              (f32x4.max
                (f32x4.add (v128.load (i32.add (local.get $src) (local.get $at))) (v128.load (i32.add (local.get $bias) (local.get $at))))
                (local.get $fv)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $next)))
        (block $lanesDone
          (loop $next
            (br_if $lanesDone (i32.ge_u (local.get $at) (local.get $end)))
            (f32.store (i32.add (local.get $dst) (local.get $at))
              (f32.max
                (f32.add (f32.load (i32.add (local.get $src) (local.get $at))) (f32.load (i32.add (local.get $bias) (local.get $at))))
                (local.get $floor)))
            (local.set $at (i32.add (local.get $at) (i32.const 4)))
            (br $next)))
        (local.set $src (i32.add (local.get $src) (local.get $end)))
        (local.set $dst (i32.add (local.get $dst) (local.get $end)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; The series strategy's spike terms (series.ts), m ≥ 4: for each decoding spike k,
  ;; dst[k, j] = max((log(max(Σ_α phi[k, α]·w[α, j], 0)) + rowOff[k]) + bias[j], floor), phi (n × f),
  ;; w (f × m). Each row is summed, logged and floored while it is in cache, instead of a matmul
  ;; with f (~10) as its inner dimension followed by five passes over the (n × m) terms.
  (func (export "seriesTerms") (param $phi i32) (param $w i32) (param $n i32) (param $m i32) (param $f i32)
        (param $rowOff i32) (param $bias i32) (param $floor f32) (param $dst i32)
    (local $k i32) (local $at i32) (local $last i32) (local $rowBytes i32) (local $fBytes i32)
    (local $prow i32) (local $drow i32) (local $a i32) (local $wp i32) (local $acc v128)
    (local $acc1 v128) (local $acc2 v128) (local $acc3 v128) (local $ph v128) (local $quadEnd i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $fBytes (i32.shl (local.get $f) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    ;; sixteen columns at a time while they fit: four independent sums instead of one chain of f adds
    (local.set $quadEnd (i32.and (local.get $rowBytes) (i32.const -64)))
    (local.set $prow (local.get $phi))
    (local.set $drow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $at (i32.const 0))
        (block $quadsDone
          (loop $quad
            (br_if $quadsDone (i32.ge_u (local.get $at) (local.get $quadEnd)))
            (local.set $acc (v128.const f32x4 0 0 0 0))
            (local.set $acc1 (v128.const f32x4 0 0 0 0))
            (local.set $acc2 (v128.const f32x4 0 0 0 0))
            (local.set $acc3 (v128.const f32x4 0 0 0 0))
            (local.set $a (i32.const 0))
            (local.set $wp (i32.add (local.get $w) (local.get $at)))
            (block $quadFeaturesDone
              (loop $quadFeature
                (br_if $quadFeaturesDone (i32.ge_u (local.get $a) (local.get $fBytes)))
                (local.set $ph (v128.load32_splat (i32.add (local.get $prow) (local.get $a))))
                (local.set $acc (f32x4.relaxed_madd (local.get $ph) (v128.load (local.get $wp)) (local.get $acc)))
                (local.set $acc1 (f32x4.relaxed_madd (local.get $ph) (v128.load offset=16 (local.get $wp)) (local.get $acc1)))
                (local.set $acc2 (f32x4.relaxed_madd (local.get $ph) (v128.load offset=32 (local.get $wp)) (local.get $acc2)))
                (local.set $acc3 (f32x4.relaxed_madd (local.get $ph) (v128.load offset=48 (local.get $wp)) (local.get $acc3)))
                (local.set $wp (i32.add (local.get $wp) (local.get $rowBytes)))
                (local.set $a (i32.add (local.get $a) (i32.const 4)))
                (br $quadFeature)))
            (v128.store (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc) (v128.const f32x4 0 0 0 0)))
            (v128.store offset=16 (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc1) (v128.const f32x4 0 0 0 0)))
            (v128.store offset=32 (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc2) (v128.const f32x4 0 0 0 0)))
            (v128.store offset=48 (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc3) (v128.const f32x4 0 0 0 0)))
            (local.set $at (i32.add (local.get $at) (i32.const 64)))
            (br $quad)))
        ;; the rest four columns at a time, the last vector overlapping the one before it
        (block $colsDone
          (loop $col
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $rowBytes)))
            (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
            (local.set $acc (v128.const f32x4 0 0 0 0))
            (local.set $a (i32.const 0))
            (local.set $wp (i32.add (local.get $w) (local.get $at)))
            (block $featuresDone
              (loop $feature
                (br_if $featuresDone (i32.ge_u (local.get $a) (local.get $fBytes)))
                (local.set $acc
                  (f32x4.relaxed_madd (v128.load32_splat (i32.add (local.get $prow) (local.get $a))) (v128.load (local.get $wp)) (local.get $acc)))
                (local.set $wp (i32.add (local.get $wp) (local.get $rowBytes)))
                (local.set $a (i32.add (local.get $a) (i32.const 4)))
                (br $feature)))
            ;; a sum rounding left below zero is an underflowed one: log 0 = −inf, then the floor
            (v128.store (i32.add (local.get $drow) (local.get $at)) (f32x4.max (local.get $acc) (v128.const f32x4 0 0 0 0)))
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $last)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $col)))
        (call $logRange (local.get $drow) (local.get $drow) (local.get $m))
        (call $offsetBiasFloor (local.get $drow) (f32.load (i32.add (local.get $rowOff) (i32.shl (local.get $k) (i32.const 2))))
          (local.get $bias) (local.get $floor) (local.get $m))
        (local.set $prow (i32.add (local.get $prow) (local.get $fBytes)))
        (local.set $drow (i32.add (local.get $drow) (local.get $rowBytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row))))

  ;; The series strategy's factor w = ψᵀ·K (f × m), ψ (e × f) with f a multiple of 4, K (e × m), m ≥ 4:
  ;; four features at a time, four accumulators per four columns, the sum over encoding spikes in
  ;; order. It reads K in place: wasm's matmul would first pack (copy) the whole (e × m) operand,
  ;; which costs more than the product itself at f ~ 10.
  (func (export "seriesFactor") (param $psi i32) (param $kpos i32) (param $e i32) (param $m i32) (param $f i32) (param $dst i32)
    (call $seriesFactorInto (local.get $psi) (local.get $kpos) (local.get $e) (local.get $m) (local.get $f) (local.get $dst) (i32.const 0)))

  ;; seriesFactor's product into dst, from zero or, with $accumulate (then m must be a multiple of
  ;; 4: no vector overlaps another), adding to what dst holds: rows taken a tile at a time then sum
  ;; in the same order as all rows at once, since each accumulator carries on where it stopped.
  (func $seriesFactorInto (param $psi i32) (param $kpos i32) (param $e i32) (param $m i32) (param $f i32) (param $dst i32) (param $accumulate i32)
    (local $at i32) (local $last i32) (local $rowBytes i32) (local $fBytes i32) (local $g i32)
    (local $i i32) (local $pp i32) (local $kp i32) (local $kv v128) (local $out i32)
    (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    (local $acc4 v128) (local $acc5 v128) (local $acc6 v128) (local $acc7 v128) (local $kw v128) (local $ps v128)
    (local $pairEnd i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $fBytes (i32.shl (local.get $f) (i32.const 2)))
    (local.set $last (i32.sub (local.get $rowBytes) (i32.const 16)))
    ;; eight columns at a time while they fit: eight independent sums per spike instead of four
    (local.set $pairEnd (i32.and (local.get $rowBytes) (i32.const -32)))
    (block $pairsDone
      (loop $pair
        (br_if $pairsDone (i32.ge_u (local.get $at) (local.get $pairEnd)))
        (local.set $g (i32.const 0))
        (block $pairGroupsDone
          (loop $pairGroup
            (br_if $pairGroupsDone (i32.ge_u (local.get $g) (local.get $fBytes)))
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (if (local.get $accumulate)
              (then
                (local.set $acc0 (v128.load (local.get $out)))
                (local.set $acc4 (v128.load offset=16 (local.get $out)))
                (local.set $acc1 (v128.load (i32.add (local.get $out) (local.get $rowBytes))))
                (local.set $acc5 (v128.load offset=16 (i32.add (local.get $out) (local.get $rowBytes))))
                (local.set $acc2 (v128.load (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1)))))
                (local.set $acc6 (v128.load offset=16 (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1)))))
                (local.set $acc3 (v128.load (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3)))))
                (local.set $acc7 (v128.load offset=16 (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3))))))
              (else
                (local.set $acc0 (v128.const f32x4 0 0 0 0))
                (local.set $acc1 (v128.const f32x4 0 0 0 0))
                (local.set $acc2 (v128.const f32x4 0 0 0 0))
                (local.set $acc3 (v128.const f32x4 0 0 0 0))
                (local.set $acc4 (v128.const f32x4 0 0 0 0))
                (local.set $acc5 (v128.const f32x4 0 0 0 0))
                (local.set $acc6 (v128.const f32x4 0 0 0 0))
                (local.set $acc7 (v128.const f32x4 0 0 0 0))))
            (local.set $pp (i32.add (local.get $psi) (local.get $g)))
            (local.set $kp (i32.add (local.get $kpos) (local.get $at)))
            (local.set $i (i32.const 0))
            (block $pairSpikesDone
              (loop $pairSpike
                (br_if $pairSpikesDone (i32.ge_u (local.get $i) (local.get $e)))
                (local.set $kv (v128.load (local.get $kp)))
                (local.set $kw (v128.load offset=16 (local.get $kp)))
                (local.set $ps (v128.load32_splat (local.get $pp)))
                (local.set $acc0 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc0)))
                (local.set $acc4 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc4)))
                (local.set $ps (v128.load32_splat offset=4 (local.get $pp)))
                (local.set $acc1 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc1)))
                (local.set $acc5 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc5)))
                (local.set $ps (v128.load32_splat offset=8 (local.get $pp)))
                (local.set $acc2 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc2)))
                (local.set $acc6 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc6)))
                (local.set $ps (v128.load32_splat offset=12 (local.get $pp)))
                (local.set $acc3 (f32x4.relaxed_madd (local.get $ps) (local.get $kv) (local.get $acc3)))
                (local.set $acc7 (f32x4.relaxed_madd (local.get $ps) (local.get $kw) (local.get $acc7)))
                (local.set $pp (i32.add (local.get $pp) (local.get $fBytes)))
                (local.set $kp (i32.add (local.get $kp) (local.get $rowBytes)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $pairSpike)))
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (v128.store (local.get $out) (local.get $acc0))
            (v128.store offset=16 (local.get $out) (local.get $acc4))
            (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
            (v128.store (local.get $out) (local.get $acc1))
            (v128.store offset=16 (local.get $out) (local.get $acc5))
            (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
            (v128.store (local.get $out) (local.get $acc2))
            (v128.store offset=16 (local.get $out) (local.get $acc6))
            (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
            (v128.store (local.get $out) (local.get $acc3))
            (v128.store offset=16 (local.get $out) (local.get $acc7))
            (local.set $g (i32.add (local.get $g) (i32.const 16)))
            (br $pairGroup)))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (br $pair)))
    ;; the rest four columns at a time, the last vector overlapping the one before it
    (block $colsDone
      (loop $col
        (br_if $colsDone (i32.ge_u (local.get $at) (local.get $rowBytes)))
        (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
        (local.set $g (i32.const 0))
        (block $groupsDone
          (loop $group
            (br_if $groupsDone (i32.ge_u (local.get $g) (local.get $fBytes)))
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (if (local.get $accumulate)
              (then
                (local.set $acc0 (v128.load (local.get $out)))
                (local.set $acc1 (v128.load (i32.add (local.get $out) (local.get $rowBytes))))
                (local.set $acc2 (v128.load (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1)))))
                (local.set $acc3 (v128.load (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3))))))
              (else
                (local.set $acc0 (v128.const f32x4 0 0 0 0))
                (local.set $acc1 (v128.const f32x4 0 0 0 0))
                (local.set $acc2 (v128.const f32x4 0 0 0 0))
                (local.set $acc3 (v128.const f32x4 0 0 0 0))))
            (local.set $pp (i32.add (local.get $psi) (local.get $g)))
            (local.set $kp (i32.add (local.get $kpos) (local.get $at)))
            (local.set $i (i32.const 0))
            (block $spikesDone
              (loop $spike
                (br_if $spikesDone (i32.ge_u (local.get $i) (local.get $e)))
                (local.set $kv (v128.load (local.get $kp)))
                (local.set $acc0 (f32x4.relaxed_madd (v128.load32_splat (local.get $pp)) (local.get $kv) (local.get $acc0)))
                (local.set $acc1 (f32x4.relaxed_madd (v128.load32_splat offset=4 (local.get $pp)) (local.get $kv) (local.get $acc1)))
                (local.set $acc2 (f32x4.relaxed_madd (v128.load32_splat offset=8 (local.get $pp)) (local.get $kv) (local.get $acc2)))
                (local.set $acc3 (f32x4.relaxed_madd (v128.load32_splat offset=12 (local.get $pp)) (local.get $kv) (local.get $acc3)))
                (local.set $pp (i32.add (local.get $pp) (local.get $fBytes)))
                (local.set $kp (i32.add (local.get $kp) (local.get $rowBytes)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $spike)))
            ;; rows 4g/4 … 4g/4 + 3 of dst ($g counts bytes of features: 16 per group)
            (local.set $out (i32.add (i32.add (local.get $dst) (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes))) (local.get $at)))
            (v128.store (local.get $out) (local.get $acc0))
            (v128.store (i32.add (local.get $out) (local.get $rowBytes)) (local.get $acc1))
            (v128.store (i32.add (local.get $out) (i32.shl (local.get $rowBytes) (i32.const 1))) (local.get $acc2))
            (v128.store (i32.add (local.get $out) (i32.mul (local.get $rowBytes) (i32.const 3))) (local.get $acc3))
            (local.set $g (i32.add (local.get $g) (i32.const 16)))
            (br $group)))
        (br_if $colsDone (i32.ge_u (local.get $at) (local.get $last)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $col))))

  ;; A fit for series on one electrode without its (n × m) position kernel in memory: the column
  ;; maxima and sums of the linear kernel as columnScaledExp gives them from $gauss's rows, and the
  ;; series factor w = ψᵀ·K (f × m) as seriesFactor gives it from that kernel, bit for bit. Samples
  ;; a (n × q) and bin centres bt (q × m) are over the widths, ψ is (n × f). A first pass forms each
  ;; kernel row for the maxima (unless $maxGiven: the caller wrote them, as for kdeColumnSums); the
  ;; second forms it again, shifts, exponentiates, adds it to the
  ;; column sums (partial sums of 256 rows) and scales it, $tile rows at a time into $rows
  ;; ($tile × m floats of scratch), then adds those rows' product into w. m is a multiple of 4;
  ;; expMax and partial are m floats of scratch; $flush as in columnScaledExp.
  (func (export "seriesGroundFactor") (param $a i32) (param $n i32) (param $q i32) (param $bt i32) (param $m i32) (param $c f32)
        (param $psi i32) (param $f i32) (param $colMax i32) (param $colSum i32) (param $w i32)
        (param $expMax i32) (param $partial i32) (param $rows i32) (param $tile i32) (param $flush f32) (param $maxGiven i32)
    (local $i i32) (local $r i32) (local $t0 i32) (local $count i32) (local $rowBytes i32) (local $sampleBytes i32)
    (local $arow i32) (local $orow i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $sampleBytes (i32.shl (local.get $q) (i32.const 2)))
    (call $fill (local.get $colSum) (local.get $rowBytes) (v128.const f32x4 0 0 0 0))
    (call $fill (local.get $w) (i32.mul (local.get $f) (local.get $rowBytes)) (v128.const f32x4 0 0 0 0))
    (if (i32.eqz (local.get $maxGiven)) (then (call $columnMaxima (local.get $a) (local.get $n) (local.get $q) (local.get $bt) (local.get $m)
      (local.get $c) (local.get $colMax) (local.get $rows))))
    (call $expRange (local.get $colMax) (local.get $expMax) (local.get $m))
    (local.set $i (i32.const 0))
    (local.set $arow (local.get $a))
    (block $tilesDone
      (loop $tileLoop
        (br_if $tilesDone (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $t0 (local.get $i))
        (local.set $count (i32.sub (local.get $n) (local.get $i)))
        (if (i32.gt_u (local.get $count) (local.get $tile)) (then (local.set $count (local.get $tile))))
        (local.set $orow (local.get $rows))
        (local.set $r (i32.const 0))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $count)))
            (call $gauss (local.get $arow) (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $orow) (i32.const 0))
            (call $scaledRowIntoSums (local.get $orow) (local.get $orow) (local.get $i) (local.get $n) (local.get $m)
              (local.get $colMax) (local.get $expMax) (local.get $partial) (local.get $colSum) (local.get $flush))
            (local.set $arow (i32.add (local.get $arow) (local.get $sampleBytes)))
            (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $row)))
        (call $seriesFactorInto
          (i32.add (local.get $psi) (i32.mul (local.get $t0) (i32.shl (local.get $f) (i32.const 2))))
          (local.get $rows) (local.get $count) (local.get $m) (local.get $f) (local.get $w) (i32.const 1))
        (br $tileLoop))))

  ;; One-dimensional Gaussian rows on a uniform grid without an exp per entry. Along a row the log
  ;; kernel z_k = c − ½(u − kδ)² is quadratic in k, so g_{k+4} = g_k·R_k and R_{k+4} = R_k·e^{−16δ²}:
  ;; two float64 multiplies per entry where the exp costs some twenty float32 operations, and in
  ;; float64 the rounding of a few thousand steps stays far below one float32 rounding. The caller
  ;; starts each row ($state: 80 bytes a row: g_0 … g_3 then R_0 … R_3 as float64 at the first bin of
  ;; the row's window, then the window's byte offsets in a float32 row, [lo, hi), multiples of 16) and
  ;; makes sure no g or R of a window leaves the float64 range; entries outside the window are 0.
  ;; Every entry is added into sums[k] (float64) in row order, flushed or not, so the sums do not
  ;; depend on the flush; with $rows not 0 each row is also stored as float32 into $rows (count × m),
  ;; an entry below floor[k] (float64, the column's flush threshold, 0 for none) as 0. m is a
  ;; multiple of 4.
  (func $gridRows (param $state i32) (param $count i32) (param $m i32) (param $q f64) (param $floor i32)
        (param $sums i32) (param $rows i32)
    (local $i i32) (local $at i32) (local $at2 i32) (local $hi i32) (local $rowBytes i32)
    (local $ga v128) (local $gb v128) (local $ra v128) (local $rb v128) (local $qv v128)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $qv (f64x2.splat (local.get $q)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $ga (v128.load (local.get $state)))
        (local.set $gb (v128.load offset=16 (local.get $state)))
        (local.set $ra (v128.load offset=32 (local.get $state)))
        (local.set $rb (v128.load offset=48 (local.get $state)))
        (local.set $at (i32.load offset=64 (local.get $state)))
        (local.set $hi (i32.load offset=68 (local.get $state)))
        (if (local.get $rows)
          (then
            ;; the bins outside the window hold 0
            (if (local.get $at) (then (call $fill (local.get $rows) (local.get $at) (v128.const f32x4 0 0 0 0))))
            (if (i32.lt_u (local.get $hi) (local.get $rowBytes))
              (then (call $fill (i32.add (local.get $rows) (local.get $hi)) (i32.sub (local.get $rowBytes) (local.get $hi)) (v128.const f32x4 0 0 0 0))))
            (block $storedDone
              (loop $stored
                (br_if $storedDone (i32.ge_u (local.get $at) (local.get $hi)))
                (local.set $at2 (i32.shl (local.get $at) (i32.const 1)))
                (v128.store (i32.add (local.get $sums) (local.get $at2))
                  (f64x2.add (v128.load (i32.add (local.get $sums) (local.get $at2))) (local.get $ga)))
                (v128.store offset=16 (i32.add (local.get $sums) (local.get $at2))
                  (f64x2.add (v128.load offset=16 (i32.add (local.get $sums) (local.get $at2))) (local.get $gb)))
                (v128.store (i32.add (local.get $rows) (local.get $at))
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                    (f32x4.demote_f64x2_zero
                      (v128.andnot (local.get $ga) (f64x2.lt (local.get $ga) (v128.load (i32.add (local.get $floor) (local.get $at2))))))
                    (f32x4.demote_f64x2_zero
                      (v128.andnot (local.get $gb) (f64x2.lt (local.get $gb) (v128.load offset=16 (i32.add (local.get $floor) (local.get $at2))))))))
                (local.set $ga (f64x2.mul (local.get $ga) (local.get $ra)))
                (local.set $gb (f64x2.mul (local.get $gb) (local.get $rb)))
                (local.set $ra (f64x2.mul (local.get $ra) (local.get $qv)))
                (local.set $rb (f64x2.mul (local.get $rb) (local.get $qv)))
                (local.set $at (i32.add (local.get $at) (i32.const 16)))
                (br $stored)))
            (local.set $rows (i32.add (local.get $rows) (local.get $rowBytes))))
          (else
            (block $summedDone
              (loop $summed
                (br_if $summedDone (i32.ge_u (local.get $at) (local.get $hi)))
                (local.set $at2 (i32.shl (local.get $at) (i32.const 1)))
                (v128.store (i32.add (local.get $sums) (local.get $at2))
                  (f64x2.add (v128.load (i32.add (local.get $sums) (local.get $at2))) (local.get $ga)))
                (v128.store offset=16 (i32.add (local.get $sums) (local.get $at2))
                  (f64x2.add (v128.load offset=16 (i32.add (local.get $sums) (local.get $at2))) (local.get $gb)))
                (local.set $ga (f64x2.mul (local.get $ga) (local.get $ra)))
                (local.set $gb (f64x2.mul (local.get $gb) (local.get $rb)))
                (local.set $ra (f64x2.mul (local.get $ra) (local.get $qv)))
                (local.set $rb (f64x2.mul (local.get $rb) (local.get $qv)))
                (local.set $at (i32.add (local.get $at) (i32.const 16)))
                (br $summed)))))
        (local.set $state (i32.add (local.get $state) (i32.const 80)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; seriesGroundFactor on a uniform grid ($gridRows' conditions): sums (m float64) = Σ_i g_ik and
  ;; w = ψᵀ·g (f × m), g flushed below floor, added $tile rows at a time as seriesGroundFactor adds
  ;; them. The caller scales the sums by its column maxima into the column sums.
  (func (export "gridSeriesGroundFactor") (param $state i32) (param $n i32) (param $m i32) (param $q f64) (param $floor i32)
        (param $sums i32) (param $psi i32) (param $f i32) (param $w i32) (param $rows i32) (param $tile i32)
    (local $i i32) (local $count i32)
    (call $fill (local.get $sums) (i32.shl (local.get $m) (i32.const 3)) (v128.const f32x4 0 0 0 0))
    (call $fill (local.get $w) (i32.shl (i32.mul (local.get $f) (local.get $m)) (i32.const 2)) (v128.const f32x4 0 0 0 0))
    (block $tilesDone
      (loop $tileLoop
        (br_if $tilesDone (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $count (i32.sub (local.get $n) (local.get $i)))
        (if (i32.gt_u (local.get $count) (local.get $tile)) (then (local.set $count (local.get $tile))))
        (call $gridRows (i32.add (local.get $state) (i32.mul (local.get $i) (i32.const 80))) (local.get $count) (local.get $m)
          (local.get $q) (local.get $floor) (local.get $sums) (local.get $rows))
        (call $seriesFactorInto
          (i32.add (local.get $psi) (i32.mul (local.get $i) (i32.shl (local.get $f) (i32.const 2))))
          (local.get $rows) (local.get $count) (local.get $m) (local.get $f) (local.get $w) (i32.const 1))
        (local.set $i (i32.add (local.get $i) (local.get $count)))
        (br $tileLoop))))

  ;; kdeColumnSums' sums on a uniform grid: sums (m float64) = Σ_i g_ik. With $rows not 0 the rows
  ;; (n × m) are stored too, flushed below floor: the linear position kernel.
  (func (export "gridRowsAndSums") (param $state i32) (param $n i32) (param $m i32) (param $q f64) (param $floor i32) (param $sums i32)
        (param $rows i32)
    (call $fill (local.get $sums) (i32.shl (local.get $m) (i32.const 3)) (v128.const f32x4 0 0 0 0))
    (call $gridRows (local.get $state) (local.get $n) (local.get $m) (local.get $q) (local.get $floor) (local.get $sums) (local.get $rows)))

  ;; The compensated strategy's position-factor rows on a uniform grid: $gridRows' recurrence from
  ;; states already divided by each row's maximum (and its window, 0 outside), each entry below
  ;; $flush (0 for none) as 0, stored as float32 into dst (count × m), m a multiple of 4
  ;; (positionFactorRows on the grid).
  (func (export "gridFactorRows") (param $state i32) (param $count i32) (param $m i32) (param $q f64) (param $flush f64) (param $dst i32)
    (local $i i32) (local $at i32) (local $hi i32) (local $rowBytes i32)
    (local $ga v128) (local $gb v128) (local $ra v128) (local $rb v128) (local $qv v128) (local $fv v128)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $qv (f64x2.splat (local.get $q)))
    (local.set $fv (f64x2.splat (local.get $flush)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $ga (v128.load (local.get $state)))
        (local.set $gb (v128.load offset=16 (local.get $state)))
        (local.set $ra (v128.load offset=32 (local.get $state)))
        (local.set $rb (v128.load offset=48 (local.get $state)))
        (local.set $at (i32.load offset=64 (local.get $state)))
        (local.set $hi (i32.load offset=68 (local.get $state)))
        (if (local.get $at) (then (call $fill (local.get $dst) (local.get $at) (v128.const f32x4 0 0 0 0))))
        (if (i32.lt_u (local.get $hi) (local.get $rowBytes))
          (then (call $fill (i32.add (local.get $dst) (local.get $hi)) (i32.sub (local.get $rowBytes) (local.get $hi)) (v128.const f32x4 0 0 0 0))))
        (block $colsDone
          (loop $col
            (br_if $colsDone (i32.ge_u (local.get $at) (local.get $hi)))
            (v128.store (i32.add (local.get $dst) (local.get $at))
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                (f32x4.demote_f64x2_zero (v128.andnot (local.get $ga) (f64x2.lt (local.get $ga) (local.get $fv))))
                (f32x4.demote_f64x2_zero (v128.andnot (local.get $gb) (f64x2.lt (local.get $gb) (local.get $fv))))))
            (local.set $ga (f64x2.mul (local.get $ga) (local.get $ra)))
            (local.set $gb (f64x2.mul (local.get $gb) (local.get $rb)))
            (local.set $ra (f64x2.mul (local.get $ra) (local.get $qv)))
            (local.set $rb (f64x2.mul (local.get $rb) (local.get $qv)))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (br $col)))
        (local.set $state (i32.add (local.get $state) (i32.const 80)))
        (local.set $dst (i32.add (local.get $dst) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; In place on one row of m ≥ 4: its maximum, then row = exp(row − maximum), 0 below $flush when
  ;; it is above 0 (see compensated.ts); returns the maximum. Max is idempotent, so the last vector
  ;; of the first pass may overlap the one before it.
  (func $rowScaledExpInPlace (param $row i32) (param $m i32) (param $flush f32) (result f32)
    (local $at i32) (local $last i32) (local $mx v128) (local $top f32)
    (local.set $last (i32.sub (i32.shl (local.get $m) (i32.const 2)) (i32.const 16)))
    (local.set $mx (v128.const f32x4 -inf -inf -inf -inf))
    (loop $col
      (if (i32.gt_u (local.get $at) (local.get $last)) (then (local.set $at (local.get $last))))
      (local.set $mx (f32x4.max (local.get $mx) (v128.load (i32.add (local.get $row) (local.get $at)))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $col (i32.lt_u (local.get $at) (i32.add (local.get $last) (i32.const 16)))))
    (local.set $top
      (f32.max
        (f32.max (f32x4.extract_lane 0 (local.get $mx)) (f32x4.extract_lane 1 (local.get $mx)))
        (f32.max (f32x4.extract_lane 2 (local.get $mx)) (f32x4.extract_lane 3 (local.get $mx)))))
    (if (f32.gt (local.get $flush) (f32.const 0))
      (then (call $expShiftedFlushed (local.get $row) (local.get $top) (local.get $flush) (local.get $m)))
      (else
        (call $subtractScalarInPlace (local.get $row) (local.get $top) (local.get $m))
        (call $expRange (local.get $row) (local.get $row) (local.get $m))))
    (local.get $top))

  ;; The compensated strategy's position factor for `count` encoding spikes taken in `order` (i32)
  ;; from `first` on, straight from their positions: row i is spike order[first + i]'s log position
  ;; kernel against the m ≥ 4 bins, as $gauss forms it from a (E × q, positions over their kernel
  ;; widths) and bt (q × m, the bins likewise), then rowMax[i] = its maximum and the row
  ;; exp(row − rowMax[i]), 0 below $flush when it is above 0 (see compensated.ts) — the op graph
  ;; max → sub → exp (→ less → where) in one pass per row in cache, with no gathered or sliced copy
  ;; of the positions and no (count × m) log kernel in memory.
  (func (export "positionFactorRows") (param $a i32) (param $order i32) (param $first i32) (param $count i32) (param $q i32)
    (param $bt i32) (param $m i32) (param $c f32) (param $dst i32) (param $rowMax i32) (param $flush f32)
    (local $i i32) (local $rowBytes i32) (local $orow i32) (local $spike i32)
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $orow (local.get $dst))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $spike (i32.load (i32.add (local.get $order) (i32.shl (i32.add (local.get $first) (local.get $i)) (i32.const 2)))))
        (call $gauss (i32.add (local.get $a) (i32.shl (i32.mul (local.get $spike) (local.get $q)) (i32.const 2)))
          (local.get $bt) (i32.const 1) (local.get $m) (local.get $q) (local.get $c) (local.get $orow) (i32.const 0))
        (f32.store (i32.add (local.get $rowMax) (i32.shl (local.get $i) (i32.const 2)))
          (call $rowScaledExpInPlace (local.get $orow) (local.get $m) (local.get $flush)))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; flags[p] (i32) = 1 when columns 8p … 8p+7 of b (k × n) hold anything but 0 (a NaN counts), else
  ;; 0; returns how many are 1. A position factor built from spikes sorted by position is 0 (flushed)
  ;; far from the chunk's positions, so many of its panels are empty.
  (func (export "panelFlags") (param $b i32) (param $k i32) (param $n i32) (param $flags i32) (result i32)
    (local $p i32) (local $panels i32) (local $rowBytes i32) (local $row i32) (local $at i32) (local $end i32)
    (local $any v128) (local $c i32) (local $count i32)
    (local.set $panels (i32.shr_u (i32.add (local.get $n) (i32.const 7)) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $end (i32.mul (local.get $k) (local.get $rowBytes)))
    (block $panelsDone
      (loop $panel
        (br_if $panelsDone (i32.ge_u (local.get $p) (local.get $panels)))
        (local.set $any (v128.const i32x4 0 0 0 0))
        (local.set $at (i32.add (local.get $b) (i32.shl (local.get $p) (i32.const 5))))
        (local.set $row (i32.const 0))
        (if (i32.ge_u (i32.sub (local.get $n) (i32.shl (local.get $p) (i32.const 3))) (i32.const 8))
          (then
            (block $rowsDone
              (loop $rows
                (br_if $rowsDone (i32.ge_u (local.get $row) (local.get $end)))
                (local.set $any
                  (v128.or (local.get $any)
                    (v128.or
                      (f32x4.ne (v128.load (i32.add (local.get $at) (local.get $row))) (v128.const f32x4 0 0 0 0))
                      (f32x4.ne (v128.load offset=16 (i32.add (local.get $at) (local.get $row))) (v128.const f32x4 0 0 0 0)))))
                (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
                (br $rows))))
          (else
            ;; the last, narrower panel one value at a time
            (block $tailDone
              (loop $tail
                (br_if $tailDone (i32.ge_u (local.get $row) (local.get $end)))
                (local.set $c (i32.shl (local.get $p) (i32.const 3)))
                (block $colsDone
                  (loop $col
                    (br_if $colsDone (i32.ge_u (local.get $c) (local.get $n)))
                    (if (f32.ne (f32.load (i32.add (i32.add (local.get $b) (local.get $row)) (i32.shl (local.get $c) (i32.const 2)))) (f32.const 0))
                      (then (local.set $any (v128.const i32x4 -1 -1 -1 -1))))
                    (local.set $c (i32.add (local.get $c) (i32.const 1)))
                    (br $col)))
                (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
                (br $tail)))))
        (i32.store (i32.add (local.get $flags) (i32.shl (local.get $p) (i32.const 2))) (v128.any_true (local.get $any)))
        (local.set $count (i32.add (local.get $count) (v128.any_true (local.get $any))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $panel)))
    (local.get $count))

  ;; Packs b (k × n) into panels of eight columns for packedProduct: panel p holds columns 8p … 8p+7
  ;; as k rows of eight floats, one after the other, the columns past n set to 0. The product then
  ;; reads its right operand as one stream (two vector loads per row) instead of one cache line per row.
  ;; With $flags (panelFlags; 0: none) only the panels flagged 1 are stored, one after the other.
  (func (export "packPanels") (param $b i32) (param $k i32) (param $n i32) (param $flags i32) (param $dst i32)
    (local $p i32) (local $panels i32) (local $rowBytes i32) (local $cols i32) (local $src i32) (local $out i32)
    (local $end i32) (local $c i32)
    (local.set $panels (i32.shr_u (i32.add (local.get $n) (i32.const 7)) (i32.const 3)))
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $out (local.get $dst))
    (block $panelsDone
      (loop $panel
        (br_if $panelsDone (i32.ge_u (local.get $p) (local.get $panels)))
        (if (local.get $flags)
          (then
            (if (i32.eqz (i32.load (i32.add (local.get $flags) (i32.shl (local.get $p) (i32.const 2)))))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $panel)))))
        (local.set $cols (i32.sub (local.get $n) (i32.shl (local.get $p) (i32.const 3))))
        (local.set $src (i32.add (local.get $b) (i32.shl (local.get $p) (i32.const 5))))
        (local.set $end (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 5))))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $out) (local.get $end)))
            (if (i32.ge_u (local.get $cols) (i32.const 8))
              (then
                (v128.store (local.get $out) (v128.load (local.get $src)))
                (v128.store offset=16 (local.get $out) (v128.load offset=16 (local.get $src))))
              (else
                (v128.store (local.get $out) (v128.const f32x4 0 0 0 0))
                (v128.store offset=16 (local.get $out) (v128.const f32x4 0 0 0 0))
                (local.set $c (i32.const 0))
                (block $colsDone
                  (loop $col
                    (br_if $colsDone (i32.ge_u (local.get $c) (local.get $cols)))
                    (f32.store (i32.add (local.get $out) (i32.shl (local.get $c) (i32.const 2)))
                      (f32.load (i32.add (local.get $src) (i32.shl (local.get $c) (i32.const 2)))))
                    (local.set $c (i32.add (local.get $c) (i32.const 1)))
                    (br $col)))))
            (local.set $src (i32.add (local.get $src) (local.get $rowBytes)))
            (local.set $out (i32.add (local.get $out) (i32.const 32)))
            (br $row)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $panel))))

;; The constants of $interpolatedRowSums' weight, written to memory once per call: as v128.const
  ;; in its loop V8 builds each from immediates (three instructions, every iteration); a load costs one.
  ;; 0: the clamp 125; 16 … 112: 2^−r's Taylor coefficients (−ln 2)^k/k! for k = 6 … 0; 128: 1.5·2^23
  ;; (rounding to an integer by an add); 144: that number's bits plus the exponent bias 127, as integers.
  (func $interpolationConstants (param $at i32)
    (v128.store offset=0 (local.get $at) (v128.const f32x4 125 125 125 125))
    (v128.store offset=16 (local.get $at) (v128.const f32x4 0.00015403530393381606 0.00015403530393381606 0.00015403530393381606 0.00015403530393381606))
    (v128.store offset=32 (local.get $at) (v128.const f32x4 -0.0013333558146428441 -0.0013333558146428441 -0.0013333558146428441 -0.0013333558146428441))
    (v128.store offset=48 (local.get $at) (v128.const f32x4 0.009618129107628477 0.009618129107628477 0.009618129107628477 0.009618129107628477))
    (v128.store offset=64 (local.get $at) (v128.const f32x4 -0.055504108664821576 -0.055504108664821576 -0.055504108664821576 -0.055504108664821576))
    (v128.store offset=80 (local.get $at) (v128.const f32x4 0.2402265069591007 0.2402265069591007 0.2402265069591007 0.2402265069591007))
    (v128.store offset=96 (local.get $at) (v128.const f32x4 -0.6931471805599453 -0.6931471805599453 -0.6931471805599453 -0.6931471805599453))
    (v128.store offset=112 (local.get $at) (v128.const f32x4 1.0 1.0 1.0 1.0))
    (v128.store offset=128 (local.get $at) (v128.const f32x4 12582912 12582912 12582912 12582912))
    (v128.store offset=144 (local.get $at) (v128.const i32x4 0x4b40007f 0x4b40007f 0x4b40007f 0x4b40007f)))

  ;; One decoding row (a: d floats) against the spike vectors [sv, svEnd) of a cell: the 8 sums
  ;; G_j = Σ_i w_i·L_j(x_i), w_i = 2^−|a − b_i|², each as four partial lanes, stored at gout (8 vectors).
  ;; A function of its own: with the cell loop's values around it, the loop's registers spilled.
  ;; w: acc = |a − b|² (the marks carry √(½·log2 e), so acc = ½|a − b|²·log2 e over the widths),
  ;; clamped at 125 so the scale 2^−n stays a normal float (an entry below 2^−125 counts as 2^−125,
  ;; less than the flush at 2^−63 that model/flush.ts allows); n = nearest(acc), 2^−(acc − n) by its
  ;; Taylor polynomial of degree 6 (within 1.2e-7 on |acc − n| ≤ ½; the series' own bound is 1e-6) in
  ;; Estrin's form, a shorter chain than Horner's, and 2^−n from the bits of acc + 1.5·2^23.
  (func $interpolatedRowSums (param $arow i32) (param $d i32) (param $sv i32) (param $svEnd i32) (param $vecBytes i32)
    (param $consts i32) (param $gout i32)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $diff v128) (local $acc v128) (local $sq v128)
    (local $t v128) (local $r v128) (local $r2 v128) (local $p v128) (local $even v128) (local $w v128) (local $lv i32) (local $dd i32)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128) (local $g4 v128) (local $g5 v128) (local $g6 v128) (local $g7 v128)
    (local.set $x0 (v128.load32_splat (local.get $arow)))
    (if (i32.eq (local.get $d) (i32.const 4))
      (then
        (local.set $x1 (v128.load32_splat offset=4 (local.get $arow)))
        (local.set $x2 (v128.load32_splat offset=8 (local.get $arow)))
        (local.set $x3 (v128.load32_splat offset=12 (local.get $arow)))))
    (block $spikesDone
      (loop $spike
        (br_if $spikesDone (i32.ge_u (local.get $sv) (local.get $svEnd)))
        (local.set $diff (f32x4.sub (local.get $x0) (v128.load (local.get $sv))))
        (local.set $acc (f32x4.mul (local.get $diff) (local.get $diff)))
        (if (i32.eq (local.get $d) (i32.const 4))
          (then
            ;; (d0² + d1²) + (d2² + d3²): a shorter chain than one running sum
            (local.set $diff (f32x4.sub (local.get $x1) (v128.load offset=16 (local.get $sv))))
            (local.set $acc (f32x4.relaxed_madd (local.get $diff) (local.get $diff) (local.get $acc)))
            (local.set $diff (f32x4.sub (local.get $x2) (v128.load offset=32 (local.get $sv))))
            (local.set $sq (f32x4.mul (local.get $diff) (local.get $diff)))
            (local.set $diff (f32x4.sub (local.get $x3) (v128.load offset=48 (local.get $sv))))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.relaxed_madd (local.get $diff) (local.get $diff) (local.get $sq)))))
          (else
            (local.set $dd (i32.const 1))
            (block $dimsDone
              (loop $dim
                (br_if $dimsDone (i32.ge_u (local.get $dd) (local.get $d)))
                (local.set $diff
                  (f32x4.sub
                    (v128.load32_splat (i32.add (local.get $arow) (i32.shl (local.get $dd) (i32.const 2))))
                    (v128.load (i32.add (local.get $sv) (i32.shl (local.get $dd) (i32.const 4))))))
                (local.set $acc (f32x4.relaxed_madd (local.get $diff) (local.get $diff) (local.get $acc)))
                (local.set $dd (i32.add (local.get $dd) (i32.const 1)))
                (br $dim)))))
        (local.set $acc (f32x4.pmin (local.get $acc) (v128.load offset=0 (local.get $consts))))
        (local.set $t (f32x4.add (local.get $acc) (v128.load offset=128 (local.get $consts))))
        (local.set $r (f32x4.sub (local.get $acc) (f32x4.nearest (local.get $acc))))
        (local.set $r2 (f32x4.mul (local.get $r) (local.get $r)))
        (local.set $p
          (f32x4.relaxed_madd
            (f32x4.relaxed_madd (v128.load offset=16 (local.get $consts)) (local.get $r) (v128.load offset=32 (local.get $consts)))
            (local.get $r2)
            (f32x4.relaxed_madd (v128.load offset=48 (local.get $consts)) (local.get $r) (v128.load offset=64 (local.get $consts)))))
        (local.set $even
          (f32x4.relaxed_madd
            (v128.load offset=80 (local.get $consts))
            (local.get $r2)
            (f32x4.relaxed_madd (v128.load offset=96 (local.get $consts)) (local.get $r) (v128.load offset=112 (local.get $consts)))))
        (local.set $p (f32x4.relaxed_madd (local.get $p) (f32x4.mul (local.get $r2) (local.get $r)) (local.get $even)))
        (local.set $w
          (f32x4.mul (local.get $p)
            (i32x4.shl (i32x4.sub (v128.load offset=144 (local.get $consts)) (local.get $t)) (i32.const 23))))
        (local.set $lv (i32.add (local.get $sv) (i32.shl (local.get $d) (i32.const 4))))
        (local.set $g0 (f32x4.relaxed_madd (local.get $w) (v128.load offset=0 (local.get $lv)) (local.get $g0)))
        (local.set $g1 (f32x4.relaxed_madd (local.get $w) (v128.load offset=16 (local.get $lv)) (local.get $g1)))
        (local.set $g2 (f32x4.relaxed_madd (local.get $w) (v128.load offset=32 (local.get $lv)) (local.get $g2)))
        (local.set $g3 (f32x4.relaxed_madd (local.get $w) (v128.load offset=48 (local.get $lv)) (local.get $g3)))
        (local.set $g4 (f32x4.relaxed_madd (local.get $w) (v128.load offset=64 (local.get $lv)) (local.get $g4)))
        (local.set $g5 (f32x4.relaxed_madd (local.get $w) (v128.load offset=80 (local.get $lv)) (local.get $g5)))
        (local.set $g6 (f32x4.relaxed_madd (local.get $w) (v128.load offset=96 (local.get $lv)) (local.get $g6)))
        (local.set $g7 (f32x4.relaxed_madd (local.get $w) (v128.load offset=112 (local.get $lv)) (local.get $g7)))
        (local.set $sv (i32.add (local.get $sv) (local.get $vecBytes)))
        (br $spike)))
    (v128.store offset=0 (local.get $gout) (local.get $g0))
    (v128.store offset=16 (local.get $gout) (local.get $g1))
    (v128.store offset=32 (local.get $gout) (local.get $g2))
    (v128.store offset=48 (local.get $gout) (local.get $g3))
    (v128.store offset=64 (local.get $gout) (local.get $g4))
    (v128.store offset=80 (local.get $gout) (local.get $g5))
    (v128.store offset=96 (local.get $gout) (local.get $g6))
    (v128.store offset=112 (local.get $gout) (local.get $g7)))

  ;; The series strategy's exact handoff on one-dimensional positions (strategies/series/interpolated.ts),
  ;; for a block of n decoding spikes (a: n × d):
  ;;   ℓ[k, p] = max(log(max(S[k, p], 0)) + off + bias[p], floor),  S[k, p] = Σ_chunks Σ_j G[k, j]·H[j, p],
  ;;   G[k, j] = Σ_(i in chunk) w[k, i]·L[j, i],  w[k, i] = exp(−½|a_k − b_i|²) (direct differences),
  ;; the marks a and b over their widths times √(½·log2 e), so that w = 2^−|a_k − b_i|².
  ;; L holds each spike's 8 Lagrange weights at its chunk's Chebyshev
  ;; nodes, H the position kernel at those nodes, so the (E × P) position kernel is never formed and
  ;; each weight costs 8 multiply-adds instead of one per stored bin.
  ;; Layouts, four spikes or four bins per vector so that every load has a constant offset:
  ;; - $spikes: per vector of 4 spikes, d × 4 mark floats then 8 × 4 Lagrange weights (zeros pad a chunk to a multiple of 4);
  ;; - $chunks: 5 int32 per chunk: first and end vector, first and end bin vector, its H's first float;
  ;; - $h: per chunk and vector of 4 bins, 8 × 4 floats (node j's 4 bins at 16·j bytes).
  ;; Within a cell the spikes are in order of their marks' projection on $dir (a unit vector, d floats),
  ;; and $bounds holds per vector the running maximum of its spikes' projections from the cell's start
  ;; and the running minimum from its end (2 floats, monotone, so a binary search finds where they
  ;; cross a value): a row skips the vectors whose every spike is more than $reach from it along $dir,
  ;; so more than $reach in mark space (|a − b|² > reach², a weight below 2^−reach²). Returns the
  ;; number of spike vectors the rows took, Σ over rows and cells (the work done, for the roofline).
  ;; $scratch: 288 bytes, a row's sums then the weight's constants ($interpolationConstants).
  ;; Chunks outer, rows inner: a chunk's spikes (tens of KB) stay in cache over the whole block, where
  ;; the row-major order would stream the electrode's every spike once per row. dst is n × m, m ≥ 4
  ;; a multiple of 4, n ≥ 1.
  (func (export "interpolatedTerms")
    (param $a i32) (param $n i32) (param $d i32) (param $spikes i32) (param $chunks i32) (param $nChunks i32) (param $h i32)
    (param $m i32) (param $off f32) (param $bias i32) (param $floor f32) (param $dst i32)
    (param $dir i32) (param $bounds i32) (param $reach f32) (param $scratch i32) (result i32)
    (local $done i32)
    (local $proj f32) (local $scale f32) (local $term f32) (local $lo i32) (local $hi i32) (local $mid i32) (local $first i32) (local $end i32)
    (local $c i32) (local $ct i32) (local $k i32) (local $sv i32) (local $svEnd i32) (local $vecBytes i32)
    (local $rowBytes i32) (local $arow i32) (local $orow i32) (local $oEnd i32) (local $hv i32) (local $dd i32) (local $r v128)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128) (local $g4 v128) (local $g5 v128) (local $g6 v128) (local $g7 v128) 
    (call $interpolationConstants (i32.add (local.get $scratch) (i32.const 128)))
    (local.set $rowBytes (i32.shl (local.get $m) (i32.const 2)))
    (local.set $vecBytes (i32.shl (i32.add (local.get $d) (i32.const 8)) (i32.const 4)))
    (call $fill (local.get $dst) (i32.mul (local.get $rowBytes) (local.get $n)) (v128.const i32x4 0 0 0 0))
    (block $chunksDone
      (loop $chunk
        (br_if $chunksDone (i32.ge_u (local.get $c) (local.get $nChunks)))
        (local.set $ct (i32.add (local.get $chunks) (i32.mul (local.get $c) (i32.const 20))))
        (local.set $k (i32.const 0))
        (local.set $arow (local.get $a))
        (local.set $orow (local.get $dst))
        (block $rowsDone
          (loop $row
            (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $n)))
            ;; the row's projection on the direction, and the cell's vectors that may hold a spike within
            ;; $reach of it along that direction (farther ones are farther in mark space too)
            ;; ($scale: Σ|a_d·u_d|, which bounds the float32 dot's rounding well below 2^−20 of it)
            (local.set $proj (f32.const 0))
            (local.set $scale (f32.const 0))
            (local.set $dd (i32.const 0))
            (loop $dot
              (local.set $term
                (f32.mul
                  (f32.load (i32.add (local.get $arow) (i32.shl (local.get $dd) (i32.const 2))))
                  (f32.load (i32.add (local.get $dir) (i32.shl (local.get $dd) (i32.const 2))))))
              (local.set $proj (f32.add (local.get $proj) (local.get $term)))
              (local.set $scale (f32.add (local.get $scale) (f32.abs (local.get $term))))
              (local.set $dd (i32.add (local.get $dd) (i32.const 1)))
              (br_if $dot (i32.lt_u (local.get $dd) (local.get $d))))
            (local.set $scale (f32.add (local.get $reach) (f32.mul (local.get $scale) (f32.const 0x1p-20))))
            ;; first vector whose running maximum reaches proj − reach
            (local.set $lo (i32.load (local.get $ct)))
            (local.set $hi (i32.load offset=4 (local.get $ct)))
            (block $found
              (loop $search
                (br_if $found (i32.ge_u (local.get $lo) (local.get $hi)))
                (local.set $mid (i32.shr_u (i32.add (local.get $lo) (local.get $hi)) (i32.const 1)))
                (if (f32.lt (f32.load (i32.add (local.get $bounds) (i32.shl (local.get $mid) (i32.const 3)))) (f32.sub (local.get $proj) (local.get $scale)))
                  (then (local.set $lo (i32.add (local.get $mid) (i32.const 1))))
                  (else (local.set $hi (local.get $mid))))
                (br $search)))
            (local.set $first (local.get $lo))
            ;; first vector whose running minimum from the end passes proj + reach: the range's end
            (local.set $hi (i32.load offset=4 (local.get $ct)))
            (block $found
              (loop $search
                (br_if $found (i32.ge_u (local.get $lo) (local.get $hi)))
                (local.set $mid (i32.shr_u (i32.add (local.get $lo) (local.get $hi)) (i32.const 1)))
                (if (f32.le (f32.load offset=4 (i32.add (local.get $bounds) (i32.shl (local.get $mid) (i32.const 3)))) (f32.add (local.get $proj) (local.get $scale)))
                  (then (local.set $lo (i32.add (local.get $mid) (i32.const 1))))
                  (else (local.set $hi (local.get $mid))))
                (br $search)))
            (local.set $end (local.get $lo))
            (local.set $done (i32.add (local.get $done) (i32.sub (local.get $end) (local.get $first))))
            (local.set $sv (i32.add (local.get $spikes) (i32.mul (local.get $first) (local.get $vecBytes))))
            (local.set $svEnd (i32.add (local.get $spikes) (i32.mul (local.get $end) (local.get $vecBytes))))
            (if (i32.lt_u (local.get $first) (local.get $end))
              (then
                ;; the row's 8 sums over the vectors in its window (none: nothing to add)
                (call $interpolatedRowSums (local.get $arow) (local.get $d) (local.get $sv) (local.get $svEnd) (local.get $vecBytes)
                  (i32.add (local.get $scratch) (i32.const 128)) (local.get $scratch))
                (local.set $g0 (v128.load offset=0 (local.get $scratch)))
                (local.set $g1 (v128.load offset=16 (local.get $scratch)))
                (local.set $g2 (v128.load offset=32 (local.get $scratch)))
                (local.set $g3 (v128.load offset=48 (local.get $scratch)))
                (local.set $g4 (v128.load offset=64 (local.get $scratch)))
                (local.set $g5 (v128.load offset=80 (local.get $scratch)))
                (local.set $g6 (v128.load offset=96 (local.get $scratch)))
                (local.set $g7 (v128.load offset=112 (local.get $scratch)))
                ;; each G in all four lanes
                (local.set $g0 (f32x4.add (local.get $g0) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g0) (local.get $g0))))
                (local.set $g0 (f32x4.add (local.get $g0) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g0) (local.get $g0))))
                (local.set $g1 (f32x4.add (local.get $g1) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g1) (local.get $g1))))
                (local.set $g1 (f32x4.add (local.get $g1) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g1) (local.get $g1))))
                (local.set $g2 (f32x4.add (local.get $g2) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g2) (local.get $g2))))
                (local.set $g2 (f32x4.add (local.get $g2) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g2) (local.get $g2))))
                (local.set $g3 (f32x4.add (local.get $g3) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g3) (local.get $g3))))
                (local.set $g3 (f32x4.add (local.get $g3) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g3) (local.get $g3))))
                (local.set $g4 (f32x4.add (local.get $g4) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g4) (local.get $g4))))
                (local.set $g4 (f32x4.add (local.get $g4) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g4) (local.get $g4))))
                (local.set $g5 (f32x4.add (local.get $g5) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g5) (local.get $g5))))
                (local.set $g5 (f32x4.add (local.get $g5) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g5) (local.get $g5))))
                (local.set $g6 (f32x4.add (local.get $g6) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g6) (local.get $g6))))
                (local.set $g6 (f32x4.add (local.get $g6) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g6) (local.get $g6))))
                (local.set $g7 (f32x4.add (local.get $g7) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $g7) (local.get $g7))))
                (local.set $g7 (f32x4.add (local.get $g7) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $g7) (local.get $g7))))
                (local.set $hv (i32.add (local.get $h) (i32.shl (i32.load offset=16 (local.get $ct)) (i32.const 2))))
                (local.set $oEnd (i32.add (local.get $orow) (i32.shl (i32.load offset=12 (local.get $ct)) (i32.const 4))))
                (local.set $dd (i32.add (local.get $orow) (i32.shl (i32.load offset=8 (local.get $ct)) (i32.const 4))))
                (block $binsDone
                  (loop $bins
                    (br_if $binsDone (i32.ge_u (local.get $dd) (local.get $oEnd)))
                    (local.set $r (v128.load (local.get $dd)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g0) (v128.load offset=0 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g1) (v128.load offset=16 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g2) (v128.load offset=32 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g3) (v128.load offset=48 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g4) (v128.load offset=64 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g5) (v128.load offset=80 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g6) (v128.load offset=96 (local.get $hv)) (local.get $r)))
                    (local.set $r (f32x4.relaxed_madd (local.get $g7) (v128.load offset=112 (local.get $hv)) (local.get $r)))
                    (v128.store (local.get $dd) (local.get $r))
                    (local.set $dd (i32.add (local.get $dd) (i32.const 16)))
                    (local.set $hv (i32.add (local.get $hv) (i32.const 128)))
                    (br $bins)))))
            (local.set $arow (i32.add (local.get $arow) (i32.shl (local.get $d) (i32.const 2))))
            (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $row)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $chunk)))
    ;; each row: a sum that rounding left below 0 is an underflowed one (log −inf, the floor), then the epilogue
    (local.set $orow (local.get $dst))
    (local.set $k (i32.const 0))
    (block $epilogueDone
      (loop $row
        (br_if $epilogueDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $dd (i32.const 0))
        (loop $clamp
          (v128.store (i32.add (local.get $orow) (local.get $dd))
            (f32x4.max (v128.load (i32.add (local.get $orow) (local.get $dd))) (v128.const i32x4 0 0 0 0)))
          (local.set $dd (i32.add (local.get $dd) (i32.const 16)))
          (br_if $clamp (i32.lt_u (local.get $dd) (local.get $rowBytes))))
        (call $logRange (local.get $orow) (local.get $orow) (local.get $m))
        (call $offsetBiasFloor (local.get $orow) (local.get $off) (local.get $bias) (local.get $floor) (local.get $m))
        (local.set $orow (i32.add (local.get $orow) (local.get $rowBytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $row)))
    (local.get $done))
)
