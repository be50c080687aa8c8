;; One-dimensional Gaussian rows on evenly spaced bins by a float64 recurrence along each row instead
;; of an exp per entry ($gridRows): the series' ground factor (gridSeriesGroundFactor), the KDE's
;; rows and sums (gridRowsAndSums) and the compensated position factor's rows (gridFactorRows). Uses
;; $fill (gaussian.wat) and $seriesFactorInto (series.wat).
;; A part of kdeKernels.wat, which includes it: the conventions and the order are there.

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
