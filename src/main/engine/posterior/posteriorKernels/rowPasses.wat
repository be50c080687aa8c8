;; the filter's passes over one row beside the conditioning: the row's maximum and the normalised
;; row. A part of posteriorKernels.wat, which includes it: the conventions are there.

  ;; The largest of x[0 … n − 1] (float32), −∞ for none; a NaN is passed over, as the plain loop's
  ;; `x > max` does (pmax keeps its first operand unless it is below the second). Max is the same
  ;; value in any order, so four lanes and a last fold give the loop's result.
  (func (export "maxF32") (param $x i32) (param $n i32) (result f32)
    (local $end i32) (local $vectorEnd i32) (local $m v128) (local $best f32) (local $v f32)
    (local.set $m (f32x4.splat (f32.const -inf)))
    (local.set $end (i32.add (local.get $x) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $vectorEnd (i32.add (local.get $x) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $vectorsDone
      (loop $vector
        (br_if $vectorsDone (i32.ge_u (local.get $x) (local.get $vectorEnd)))
        (local.set $m (f32x4.pmax (local.get $m) (v128.load (local.get $x))))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $vector)))
    (local.set $best (f32x4.extract_lane 0 (local.get $m)))
    (if (f32.gt (f32x4.extract_lane 1 (local.get $m)) (local.get $best)) (then (local.set $best (f32x4.extract_lane 1 (local.get $m)))))
    (if (f32.gt (f32x4.extract_lane 2 (local.get $m)) (local.get $best)) (then (local.set $best (f32x4.extract_lane 2 (local.get $m)))))
    (if (f32.gt (f32x4.extract_lane 3 (local.get $m)) (local.get $best)) (then (local.set $best (f32x4.extract_lane 3 (local.get $m)))))
    (block $done
      (loop $lane
        (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
        (local.set $v (f32.load (local.get $x)))
        (if (f32.gt (local.get $v) (local.get $best)) (then (local.set $best (local.get $v))))
        (local.set $x (i32.add (local.get $x) (i32.const 4)))
        (br $lane)))
    (local.get $best))

  ;; dst[k] = float32(src[k] · factor) for k = 0 … n − 1: float64 src, float32 dst, the product
  ;; rounded once to float32 as a store into a Float32Array rounds it.
  (func (export "scaleToF32") (param $dst i32) (param $src i32) (param $n i32) (param $factor f64)
    (local $end i32) (local $pairEnd i32) (local $s v128)
    (local.set $s (f64x2.splat (local.get $factor)))
    (local.set $end (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $pairEnd (i32.add (local.get $dst) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 2))))
    (block $pairsDone
      (loop $pair
        (br_if $pairsDone (i32.ge_u (local.get $dst) (local.get $pairEnd)))
        (v128.store64_lane 0 (local.get $dst) (f32x4.demote_f64x2_zero (f64x2.mul (v128.load (local.get $src)) (local.get $s))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
        (local.set $src (i32.add (local.get $src) (i32.const 16)))
        (br $pair)))
    (if (i32.lt_u (local.get $dst) (local.get $end))
      (then (f32.store (local.get $dst) (f32.demote_f64 (f64.mul (f64.load (local.get $src)) (local.get $factor)))))))
