;; one pass of the separable convolution along a strided axis, two bins at a time.
;; A part of posteriorKernels.wat, which includes it: the conventions are there.

  ;; out[i] = k[0]·x[i] + Σ_{d = 1 … h} k[d]·(x[i − d·s] + x[i + d·s]) for i = 0 … n − 1, the terms
  ;; added in that order: one pass of the separable convolution (separableConvolution.ts is the
  ;; definition). x holds zeros wherever a tap falls outside the grid, so each output takes its
  ;; plain loop's terms in its order (a zero tap adds an exact zero) and has the same bits. Two
  ;; outputs at a time in float64 lanes; x, k and out float64, the tap stride s in bytes.
  (func (export "symmetricStencil") (param $out i32) (param $x i32) (param $n i32) (param $k i32) (param $h i32) (param $s i32)
    (local $pairEnd i32) (local $end i32) (local $d i32) (local $kd i32) (local $lo i32) (local $hi i32)
    (local $acc v128) (local $sum f64)
    (local.set $pairEnd (i32.add (local.get $out) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3))))
    (block $pairsDone
      (loop $pair
        (br_if $pairsDone (i32.ge_u (local.get $out) (local.get $pairEnd)))
        (local.set $acc (f64x2.mul (f64x2.splat (f64.load (local.get $k))) (v128.load (local.get $x))))
        (local.set $kd (local.get $k))
        (local.set $lo (local.get $x))
        (local.set $hi (local.get $x))
        (local.set $d (i32.const 0))
        (block $tapsDone
          (loop $tap
            (br_if $tapsDone (i32.ge_u (local.get $d) (local.get $h)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (local.set $kd (i32.add (local.get $kd) (i32.const 8)))
            (local.set $lo (i32.sub (local.get $lo) (local.get $s)))
            (local.set $hi (i32.add (local.get $hi) (local.get $s)))
            (local.set $acc (f64x2.add (local.get $acc)
              (f64x2.mul (f64x2.splat (f64.load (local.get $kd))) (f64x2.add (v128.load (local.get $lo)) (v128.load (local.get $hi))))))
            (br $tap)))
        (v128.store (local.get $out) (local.get $acc))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $pair)))
    ;; an odd n's last output alone, with the same terms in the same order
    (if (i32.lt_u (local.get $out) (local.get $end))
      (then
        (local.set $sum (f64.mul (f64.load (local.get $k)) (f64.load (local.get $x))))
        (local.set $kd (local.get $k))
        (local.set $lo (local.get $x))
        (local.set $hi (local.get $x))
        (local.set $d (i32.const 0))
        (block $lastDone
          (loop $lastTap
            (br_if $lastDone (i32.ge_u (local.get $d) (local.get $h)))
            (local.set $d (i32.add (local.get $d) (i32.const 1)))
            (local.set $kd (i32.add (local.get $kd) (i32.const 8)))
            (local.set $lo (i32.sub (local.get $lo) (local.get $s)))
            (local.set $hi (i32.add (local.get $hi) (local.get $s)))
            (local.set $sum (f64.add (local.get $sum)
              (f64.mul (f64.load (local.get $kd)) (f64.add (f64.load (local.get $lo)) (f64.load (local.get $hi))))))
            (br $lastTap)))
        (f64.store (local.get $out) (local.get $sum)))))
