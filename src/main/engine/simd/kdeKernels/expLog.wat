;; exp and log on four lanes (Cephes' schemes), and log two vectors at a time: the functions every
;; other part calls ($expRange, $logRange) and the exported exp and log the calibration rates.
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

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

