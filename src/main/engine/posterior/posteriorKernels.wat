;; The structured transition's products for the posterior's filter and smoother
;; (transitionProducts.ts is the definition). A module of its own with its own memory: the posterior
;; does not run on TensorFlow.js, so it has no backend heap to borrow.
;;
;; A random-walk band is stored by diagonals: diagonal k holds A[i, i + dMin + k] at element i of
;; its row, zero where row i has no entry there, with zero padding before and after
;; (kernelPlan.ts). Then f @ A and A @ r are both elementwise along the diagonals: eight outputs go
;; together in float64 lanes and every output adds its terms in the order the plain loops do
;; (f @ A by ascending source row, A @ r by ascending destination column), so each sum has the same
;; bits as the row-by-row definition. A padded zero adds an exact zero, which changes no sum.
;; Every multiply is float32 promoted to float64 as in JavaScript, and there is no fused
;; multiply-add, which would round differently.
(module
  (memory (export "memory") 1)

  ;; Whether any of the bytes [p, p + bytes) rounded up to 16 is not zero. A group of outputs whose
  ;; inputs are all zero would only add zeros, which leave every sum as it is, so the bands skip it:
  ;; posteriors are exactly zero far from their mass.
  (func $anyBits (param $p i32) (param $bytes i32) (result i32)
    (local $end i32) (local $bits v128)
    (local.set $end (i32.add (local.get $p) (local.get $bytes)))
    (loop $next
      (local.set $bits (v128.or (local.get $bits) (v128.load (local.get $p))))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br_if $next (i32.lt_u (local.get $p) (local.get $end))))
    (v128.any_true (local.get $bits)))

  ;; acc[j] += Σ_k f[j − d_k] · diag_k[j − d_k] for j = 0 … count − 1 rounded up to a multiple of
  ;; eight, d_k = dMin + k, taken from the top diagonal down (ascending source row). acc points at
  ;; the block's first destination (float64), f at its first source (float32), diag at element 0 of
  ;; diagonal 0 (float32, diagonals strideBytes apart). A lane past count meets only padded zeros
  ;; and keeps its value. Eight outputs at a time: each output's sum is a chain of dependent adds,
  ;; so four chains run side by side. The group reads f[j − dMax … j + 7 − dMin].
  (func (export "bandForward") (param $acc i32) (param $f i32) (param $diag i32) (param $strideBytes i32)
    (param $width i32) (param $dMin i32) (param $count i32)
    (local $j i32) (local $k i32) (local $pf i32) (local $pv i32) (local $step i32) (local $dMax i32) (local $top i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $dMax (i32.add (local.get $dMin) (i32.sub (local.get $width) (i32.const 1))))
    ;; one diagonal down: the source row and the element within the diagonal move on by one
    (local.set $step (i32.sub (i32.const 4) (local.get $strideBytes)))
    (local.set $top (i32.add (local.get $diag) (i32.mul (i32.sub (local.get $width) (i32.const 1)) (local.get $strideBytes))))
    (block $done
      (loop $group
        (br_if $done (i32.ge_s (local.get $j) (local.get $count)))
        (local.set $a0 (v128.load (local.get $acc)))
        (local.set $a1 (v128.load offset=16 (local.get $acc)))
        (local.set $a2 (v128.load offset=32 (local.get $acc)))
        (local.set $a3 (v128.load offset=48 (local.get $acc)))
        (local.set $pf (i32.add (local.get $f) (i32.shl (i32.sub (local.get $j) (local.get $dMax)) (i32.const 2))))
        (local.set $pv (i32.add (local.get $top) (i32.shl (i32.sub (local.get $j) (local.get $dMax)) (i32.const 2))))
        (local.set $k (local.get $width))
        (if (call $anyBits (local.get $pf) (i32.shl (i32.add (local.get $width) (i32.const 7)) (i32.const 2)))
          (then
        (loop $diagonal
          (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul
            (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pf))) (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pv))))))
          (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul
            (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $pf))) (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $pv))))))
          (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul
            (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 (local.get $pf))) (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 (local.get $pv))))))
          (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul
            (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $pf))) (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $pv))))))
          (local.set $pf (i32.add (local.get $pf) (i32.const 4)))
          (local.set $pv (i32.add (local.get $pv) (local.get $step)))
          (br_if $diagonal (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (v128.store (local.get $acc) (local.get $a0))
        (v128.store offset=16 (local.get $acc) (local.get $a1))
        (v128.store offset=32 (local.get $acc) (local.get $a2))
        (v128.store offset=48 (local.get $acc) (local.get $a3))))
        (local.set $acc (i32.add (local.get $acc) (i32.const 64)))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $group))))

  ;; out[i] += Σ_k diag_k[i] · r[i + d_k] for i = 0 … count − 1 rounded up to a multiple of eight,
  ;; each sum started at zero and taken from the lowest diagonal up (ascending destination column)
  ;; before it is added, as the row's dot product is. out points at the block's first source row
  ;; (float64), r at its first destination (float64). The group reads r[i + dMin … i + 7 + dMax].
  (func (export "bandBackward") (param $out i32) (param $r i32) (param $diag i32) (param $strideBytes i32)
    (param $width i32) (param $dMin i32) (param $count i32)
    (local $i i32) (local $k i32) (local $pr i32) (local $pv i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (block $done
      (loop $group
        (br_if $done (i32.ge_s (local.get $i) (local.get $count)))
        (local.set $a0 (v128.const f64x2 0 0))
        (local.set $a1 (v128.const f64x2 0 0))
        (local.set $a2 (v128.const f64x2 0 0))
        (local.set $a3 (v128.const f64x2 0 0))
        (local.set $pr (i32.add (local.get $r) (i32.shl (i32.add (local.get $i) (local.get $dMin)) (i32.const 3))))
        (local.set $pv (i32.add (local.get $diag) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $k (local.get $width))
        (if (call $anyBits (local.get $pr) (i32.shl (i32.add (local.get $width) (i32.const 7)) (i32.const 3)))
          (then
        (loop $diagonal
          (local.set $a0 (f64x2.add (local.get $a0)
            (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pv))) (v128.load (local.get $pr)))))
          (local.set $a1 (f64x2.add (local.get $a1)
            (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $pv))) (v128.load offset=16 (local.get $pr)))))
          (local.set $a2 (f64x2.add (local.get $a2)
            (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 (local.get $pv))) (v128.load offset=32 (local.get $pr)))))
          (local.set $a3 (f64x2.add (local.get $a3)
            (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $pv))) (v128.load offset=48 (local.get $pr)))))
          (local.set $pr (i32.add (local.get $pr) (i32.const 8)))
          (local.set $pv (i32.add (local.get $pv) (local.get $strideBytes)))
          (br_if $diagonal (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (v128.store (local.get $out) (f64x2.add (v128.load (local.get $out)) (local.get $a0)))
        (v128.store offset=16 (local.get $out) (f64x2.add (v128.load offset=16 (local.get $out)) (local.get $a1)))
        (v128.store offset=32 (local.get $out) (f64x2.add (v128.load offset=32 (local.get $out)) (local.get $a2)))
        (v128.store offset=48 (local.get $out) (f64x2.add (v128.load offset=48 (local.get $out)) (local.get $a3)))))
        (local.set $out (i32.add (local.get $out) (i32.const 64)))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $group))))

  ;; The row masses of two blocks of n source rows each, Σ x[0 … n) and Σ y[0 … n) of float32 values
  ;; in float64, into dst[0] and dst[1]: two sums side by side in one pair of lanes, each one term
  ;; after the other as the definition adds them. Eight terms that are all zero are skipped (adding
  ;; zero leaves a sum as it is).
  (func (export "sumPairF32") (param $x i32) (param $y i32) (param $n i32) (param $dst i32)
    (local $j i32) (local $chunkEnd i32) (local $acc v128)
    (local.set $chunkEnd (i32.and (local.get $n) (i32.const -8)))
    (block $chunksDone
      (loop $chunk
        (br_if $chunksDone (i32.ge_u (local.get $j) (local.get $chunkEnd)))
        (if (i32.or (call $anyBits (local.get $x) (i32.const 32)) (call $anyBits (local.get $y) (i32.const 32)))
          (then
            (local.set $acc (call $addPairs (local.get $acc) (local.get $x) (local.get $y) (i32.const 8)))))
        (local.set $x (i32.add (local.get $x) (i32.const 32)))
        (local.set $y (i32.add (local.get $y) (i32.const 32)))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $chunk)))
    (v128.store (local.get $dst) (call $addPairs (local.get $acc) (local.get $x) (local.get $y) (i32.sub (local.get $n) (local.get $j)))))

  ;; acc + (x[t], y[t]) for t = 0 … count − 1, in order
  (func $addPairs (param $acc v128) (param $x i32) (param $y i32) (param $count i32) (result v128)
    (block $done
      (loop $next
        (br_if $done (i32.le_s (local.get $count) (i32.const 0)))
        (local.set $acc (f64x2.add (local.get $acc)
          (f64x2.promote_low_f32x4 (f32x4.replace_lane 1 (f32x4.splat (f32.load (local.get $x))) (f32.load (local.get $y))))))
        (local.set $x (i32.add (local.get $x) (i32.const 4)))
        (local.set $y (i32.add (local.get $y) (i32.const 4)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $next)))
    (local.get $acc))

  ;; Four dot products with the same float64 vector r, Σ v_q[j] · r[j] over j = 0 … n − 1 for the
  ;; float32 rows v0 … v3, into dst[0 … 3]: four sums side by side in two pairs of lanes, each one
  ;; term after the other. (Fewer rows: repeat one.) Eight zeros of r in a row are skipped.
  (func (export "dotQuadF32F64") (param $r i32) (param $n i32) (param $v0 i32) (param $v1 i32) (param $v2 i32) (param $v3 i32)
    (param $dst i32)
    (local $j i32) (local $chunkEnd i32) (local $count i32) (local $rj v128) (local $a01 v128) (local $a23 v128)
    (local.set $chunkEnd (i32.and (local.get $n) (i32.const -8)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $j) (local.get $n)))
        ;; a whole chunk of zeros is passed over; otherwise the chunk (or the tail) term by term
        (if (i32.and (i32.lt_u (local.get $j) (local.get $chunkEnd)) (i32.eqz (call $anyBits (local.get $r) (i32.const 64))))
          (then (local.set $count (i32.const 8)))
          (else
            (local.set $count (select (i32.const 8) (i32.sub (local.get $n) (local.get $j)) (i32.lt_u (local.get $j) (local.get $chunkEnd))))
            (loop $term
              (local.set $rj (f64x2.splat (f64.load (local.get $r))))
              (local.set $a01 (f64x2.add (local.get $a01) (f64x2.mul (local.get $rj)
                (f64x2.promote_low_f32x4 (f32x4.replace_lane 1 (f32x4.splat (f32.load (local.get $v0))) (f32.load (local.get $v1)))))))
              (local.set $a23 (f64x2.add (local.get $a23) (f64x2.mul (local.get $rj)
                (f64x2.promote_low_f32x4 (f32x4.replace_lane 1 (f32x4.splat (f32.load (local.get $v2))) (f32.load (local.get $v3)))))))
              (local.set $r (i32.add (local.get $r) (i32.const 8)))
              (local.set $v0 (i32.add (local.get $v0) (i32.const 4)))
              (local.set $v1 (i32.add (local.get $v1) (i32.const 4)))
              (local.set $v2 (i32.add (local.get $v2) (i32.const 4)))
              (local.set $v3 (i32.add (local.get $v3) (i32.const 4)))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br_if $term (local.tee $count (i32.sub (local.get $count) (i32.const 1)))))
            (local.set $count (i32.const 0))))
        ;; after a skipped chunk, every pointer moves on by the chunk
        (local.set $r (i32.add (local.get $r) (i32.shl (local.get $count) (i32.const 3))))
        (local.set $v0 (i32.add (local.get $v0) (i32.shl (local.get $count) (i32.const 2))))
        (local.set $v1 (i32.add (local.get $v1) (i32.shl (local.get $count) (i32.const 2))))
        (local.set $v2 (i32.add (local.get $v2) (i32.shl (local.get $count) (i32.const 2))))
        (local.set $v3 (i32.add (local.get $v3) (i32.shl (local.get $count) (i32.const 2))))
        (local.set $j (i32.add (local.get $j) (local.get $count)))
        (br $next)))
    (v128.store (local.get $dst) (local.get $a01))
    (v128.store offset=16 (local.get $dst) (local.get $a23)))

  ;; acc[j] += scale · values[j] for j = 0 … n − 1 (float64 acc, float32 values)
  (func (export "addScaled") (param $acc i32) (param $values i32) (param $n i32) (param $scale f64)
    (local $end i32) (local $vectorEnd i32) (local $s v128) (local $v v128)
    (local.set $s (f64x2.splat (local.get $scale)))
    (local.set $end (i32.add (local.get $values) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $vectorEnd (i32.add (local.get $values) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $vectorsDone
      (loop $vector
        (br_if $vectorsDone (i32.ge_u (local.get $values) (local.get $vectorEnd)))
        (local.set $v (v128.load (local.get $values)))
        (v128.store (local.get $acc)
          (f64x2.add (v128.load (local.get $acc)) (f64x2.mul (local.get $s) (f64x2.promote_low_f32x4 (local.get $v)))))
        (v128.store offset=16 (local.get $acc)
          (f64x2.add (v128.load offset=16 (local.get $acc))
            (f64x2.mul (local.get $s)
              (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))))
        (local.set $values (i32.add (local.get $values) (i32.const 16)))
        (local.set $acc (i32.add (local.get $acc) (i32.const 32)))
        (br $vector)))
    (block $done
      (loop $lane
        (br_if $done (i32.ge_u (local.get $values) (local.get $end)))
        (f64.store (local.get $acc)
          (f64.add (f64.load (local.get $acc)) (f64.mul (local.get $scale) (f64.promote_f32 (f32.load (local.get $values))))))
        (local.set $values (i32.add (local.get $values) (i32.const 4)))
        (local.set $acc (i32.add (local.get $acc) (i32.const 8)))
        (br $lane))))

  ;; include posteriorKernels/separableStencil.wat

  ;; include posteriorKernels/rowPasses.wat

  ;; out[i] += c for i = 0 … n − 1 (float64)
  (func (export "addConstant") (param $out i32) (param $n i32) (param $c f64)
    (local $end i32) (local $vectorEnd i32) (local $s v128)
    (local.set $s (f64x2.splat (local.get $c)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3))))
    (local.set $vectorEnd (i32.add (local.get $out) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $vectorsDone
      (loop $vector
        (br_if $vectorsDone (i32.ge_u (local.get $out) (local.get $vectorEnd)))
        (v128.store (local.get $out) (f64x2.add (v128.load (local.get $out)) (local.get $s)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $vector)))
    (if (i32.lt_u (local.get $out) (local.get $end))
      (then (f64.store (local.get $out) (f64.add (f64.load (local.get $out)) (local.get $c))))))

  ;; The filter's conditioning of one row (causalFilter.ts): u[k] = pred[k] · e^(ll[k] − max), 0 where
  ;; ll[k] − max < −746, and returns mass0 + Σ u[k] added one term after the other. e^x is posteriorExp.ts's
  ;; expOfNonPositive step for step, two bins at a time, so u and the sum have the plain loop's bits.
  ;; ll and pred are float32, u and e float64; a lane whose x is below −746 computes garbage that is
  ;; masked to zero before the multiply by pred. An odd n leaves the last pair's second lane unused.
  ;; Each e^(ll[k] − max) is kept in e, so a later part of the row whose ll has the same bits
  ;; (the detector's two non-local states share one likelihood) takes them with reuseRow; mass0
  ;; lets the row's sum go on across the calls as one chain.
  (func (export "conditionRow") (param $ll i32) (param $pred i32) (param $n i32) (param $max f64) (param $u i32)
    (param $eOut i32) (param $mass0 f64) (result f64)
    (local $k i32) (local $mass f64) (local $m v128) (local $d v128) (local $kf v128) (local $r v128) (local $p v128)
    (local $ki v128) (local $k1 v128) (local $e v128) (local $v v128)
    (local.set $m (f64x2.splat (local.get $max)))
    (local.set $mass (local.get $mass0))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $d (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $ll))) (local.get $m)))
        (local.set $kf (f64x2.sub
          (f64x2.add (f64x2.mul (local.get $d) (f64x2.splat (f64.const 1.4426950408889634))) (f64x2.splat (f64.const 6755399441055744)))
          (f64x2.splat (f64.const 6755399441055744))))
        (local.set $r (f64x2.sub
          (f64x2.sub (local.get $d) (f64x2.mul (local.get $kf) (f64x2.splat (f64.const 0.69314718036912382))))
          (f64x2.mul (local.get $kf) (f64x2.splat (f64.const 1.9082149292705877e-10)))))
        (local.set $p (f64x2.add (f64x2.mul (f64x2.splat (f64.const 1.6059043836821613e-10)) (local.get $r)) (f64x2.splat (f64.const 2.08767569878681e-9))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 2.505210838544172e-8))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 2.7557319223985888e-7))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.0000027557319223985893))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.000024801587301587302))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.00019841269841269841))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.0013888888888888889))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.0083333333333333332))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.041666666666666664))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.16666666666666666))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 0.5))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 1))))
        (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (f64x2.splat (f64.const 1))))
        ;; 2^k as 2^k1 · 2^(k − k1), k1 = floor(k / 2): each factor's bits are (exponent + 1023) << 52
        (local.set $ki (i32x4.trunc_sat_f64x2_s_zero (local.get $kf)))
        (local.set $k1 (i32x4.shr_s (local.get $ki) (i32.const 1)))
        (local.set $e (f64x2.mul
          (f64x2.mul (local.get $p)
            (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k1)) (i64x2.splat (i64.const 1023))) (i32.const 52)))
          (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.sub (local.get $ki) (local.get $k1))) (i64x2.splat (i64.const 1023))) (i32.const 52))))
        (local.set $e (v128.andnot (local.get $e) (f64x2.lt (local.get $d) (f64x2.splat (f64.const -746)))))
        (v128.store (local.get $eOut) (local.get $e))
        (local.set $v (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pred))) (local.get $e)))
        (local.set $mass (f64.add (local.get $mass) (f64x2.extract_lane 0 (local.get $v))))
        (if (i32.lt_s (i32.add (local.get $k) (i32.const 1)) (local.get $n))
          (then
            (v128.store (local.get $u) (local.get $v))
            (local.set $mass (f64.add (local.get $mass) (f64x2.extract_lane 1 (local.get $v)))))
          (else (v128.store64_lane 0 (local.get $u) (local.get $v))))
        (local.set $ll (i32.add (local.get $ll) (i32.const 8)))
        (local.set $pred (i32.add (local.get $pred) (i32.const 8)))
        (local.set $u (i32.add (local.get $u) (i32.const 16)))
        (local.set $eOut (i32.add (local.get $eOut) (i32.const 16)))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pair)))
    (local.get $mass))

  ;; include posteriorKernels/reuseRow.wat
)
