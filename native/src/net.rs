//! Master's network's forward pass: the same numbers as `tienlen/bots/master_net.py` (`MasterNet`), faster.
//!
//! A multilayer perceptron whose inputs are 0 or 1, given as the indices of those that are 1: the first layer
//! adds the rows of those inputs to its biases (the inputs a decision's actions share once, then each action's
//! own), then ReLU, dense layers (ReLU between them) and the last layer's outputs (logits; the sigmoid is the
//! caller's). The weights arrive as the file stores them (float32, each weight matrix by input row, then its
//! biases) and are kept as `f64`, summed in the Python reference's order: on Python 3.11 both give the same bits,
//! and on Python 3.12+ (whose `sum` compensates) they differ in the last places only.

use std::sync::Arc;

use crate::abi::{free_handle, guard, new_handle, open, slice, Handle};

/// One dense layer: its weights by output row (`outputs × inputs`) and its biases, as `f64` and as the file's
/// `f32` (the playouts' pass).
struct Dense {
    inputs: usize,
    weights: Vec<f64>,
    bias: Vec<f64>,
    weights32: Vec<f32>,
    bias32: Vec<f32>,
}

/// The network: the first layer's rows by input and its biases, then the dense layers.
pub struct Net {
    inputs: usize,
    rows: Vec<f64>,
    bias: Vec<f64>,
    rows32: Vec<f32>,
    bias32: Vec<f32>,
    dense: Vec<Dense>,
    outputs: usize,
}

impl Net {
    /// The network of these layer sizes (inputs, hidden..., outputs) and numbers, as the weights file holds them.
    pub fn new(sizes: &[u32], numbers: &[f32]) -> Result<Net, String> {
        if sizes.len() < 3 || sizes.contains(&0) {
            return Err(format!(
                "a network has inputs, a hidden layer or more and outputs, not sizes {sizes:?}"
            ));
        }
        let sizes: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
        let expected: usize = sizes.windows(2).map(|w| w[0] * w[1] + w[1]).sum();
        if numbers.len() != expected {
            return Err(format!(
                "sizes {sizes:?} take {expected} numbers, not {}",
                numbers.len()
            ));
        }
        let wide = |part: &[f32]| part.iter().map(|&x| f64::from(x)).collect::<Vec<f64>>();
        let (inputs, hidden) = (sizes[0], sizes[1]);
        let mut at = inputs * hidden;
        let rows = wide(&numbers[..at]);
        let bias = wide(&numbers[at..at + hidden]);
        at += hidden;
        let mut dense = Vec::with_capacity(sizes.len() - 2);
        for w in sizes[1..].windows(2) {
            let (n_in, n_out) = (w[0], w[1]);
            let by_input = &numbers[at..at + n_in * n_out];
            at += n_in * n_out;
            let mut weights = Vec::with_capacity(n_in * n_out);
            for j in 0..n_out {
                weights.extend((0..n_in).map(|i| f64::from(by_input[i * n_out + j])));
            }
            let bias32 = numbers[at..at + n_out].to_vec();
            dense.push(Dense {
                inputs: n_in,
                weights32: weights.iter().map(|&w| w as f32).collect(),
                bias: wide(&bias32),
                bias32,
                weights,
            });
            at += n_out;
        }
        Ok(Net {
            inputs,
            rows32: numbers[..inputs * hidden].to_vec(),
            bias32: numbers[inputs * hidden..inputs * hidden + hidden].to_vec(),
            rows,
            bias,
            dense,
            outputs: sizes[sizes.len() - 1],
        })
    }

    /// How many inputs it reads.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// How many outputs an action gets.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Refuse an input index the network does not have.
    fn check(&self, indices: &[u32]) -> Result<(), String> {
        match indices.iter().find(|&&i| i as usize >= self.inputs) {
            Some(i) => Err(format!("input {i} of a network of {} inputs", self.inputs)),
            None => Ok(()),
        }
    }

    fn add_rows(&self, total: &mut [f64], indices: &[u32]) {
        let width = total.len();
        for &i in indices {
            let row = &self.rows[i as usize * width..(i as usize + 1) * width];
            for (t, r) in total.iter_mut().zip(row) {
                *t += r;
            }
        }
    }

    /// The first layer's sums over the inputs every action shares (`MasterNet.situation`).
    pub fn situation(&self, shared: &[u32]) -> Result<Vec<f64>, String> {
        self.check(shared)?;
        let mut total = self.bias.clone();
        self.add_rows(&mut total, shared);
        Ok(total)
    }

    /// The outputs (logits) for one action's own inputs, given the decision's [`Net::situation`].
    pub fn logits(&self, situation: &[f64], own: &[u32], out: &mut [f64]) -> Result<(), String> {
        self.check(own)?;
        let mut layer = situation.to_vec();
        self.add_rows(&mut layer, own);
        relu(&mut layer);
        let last = self.dense.len() - 1;
        for (depth, dense) in self.dense.iter().enumerate() {
            let mut next: Vec<f64> = dense
                .weights
                .chunks_exact(dense.inputs)
                .zip(&dense.bias)
                .map(|(row, &b)| layer.iter().zip(row).fold(b, |sum, (x, w)| sum + x * w))
                .collect();
            if depth != last {
                relu(&mut next);
            }
            layer = next;
        }
        out.copy_from_slice(&layer);
        Ok(())
    }
}

impl Net {
    /// The outputs for one action as [`Net::logits`] but in `f32`, each dense layer's sums taken in eight lanes
    /// (input `i` in lane `i % 8`, the lanes then added in order, then the rest past the last eight, then the bias
    /// added to that), every operation rounded to `f32`: the order `master_net.MasterNet.blocked_logits` follows,
    /// so the same numbers, and several times faster here (the lanes run side by side). The playouts' pass; indices
    /// in range.
    pub fn blocked_logits(&self, situation: &[f32], own: &[u32], layer: &mut Vec<f32>, out: &mut [f32]) {
        layer.clear();
        layer.extend_from_slice(situation);
        add_rows32(&self.rows32, layer, own);
        relu32(layer);
        let last = self.dense.len() - 1;
        let mut next = Vec::with_capacity(layer.len());
        for (depth, dense) in self.dense.iter().enumerate() {
            next.clear();
            for (row, &b) in dense.weights32.chunks_exact(dense.inputs).zip(&dense.bias32) {
                next.push(b + dot8(layer, row));
            }
            if depth != last {
                relu32(&mut next);
            }
            std::mem::swap(layer, &mut next);
        }
        out.copy_from_slice(&layer[..out.len()]);
    }

    /// The first layer's sums over the shared inputs in `f32` (its biases, then each input's row in order), into a
    /// list the caller keeps (indices in range).
    pub fn situation32(&self, shared: &[u32], out: &mut Vec<f32>) {
        out.clear();
        out.extend_from_slice(&self.bias32);
        add_rows32(&self.rows32, out, shared);
    }
}

fn add_rows32(rows: &[f32], total: &mut [f32], indices: &[u32]) {
    let width = total.len();
    for &i in indices {
        let row = &rows[i as usize * width..(i as usize + 1) * width];
        for (t, r) in total.iter_mut().zip(row) {
            *t += r;
        }
    }
}

/// A dot product in eight lanes (input `i` in lane `i % 8`), the lanes added in order, then the rest.
fn dot8(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let rest = ra.iter().zip(rb).fold(0.0, |sum, (x, y)| sum + x * y);
    lanes.iter().fold(0.0, |sum, &lane| sum + lane) + rest
}

fn relu32(values: &mut [f32]) {
    for x in values.iter_mut() {
        *x = if *x > 0.0 { *x } else { 0.0 };
    }
}

fn relu(values: &mut [f64]) {
    for x in values.iter_mut() {
        // as the reference: `x if x > 0.0 else 0.0` (a NaN or -0.0 becomes 0.0)
        *x = if *x > 0.0 { *x } else { 0.0 };
    }
}

/// A network from its layer sizes (`n_sizes` of them: inputs, hidden..., outputs) and its `count` numbers, as the
/// weights file stores them. A handle, or null.
///
/// # Safety
/// `sizes` points at `n_sizes` numbers and `numbers` at `count`.
#[no_mangle]
pub unsafe extern "C" fn tl_net_new(
    sizes: *const u32,
    n_sizes: usize,
    numbers: *const f32,
    count: usize,
) -> Handle<Arc<Net>> {
    guard(std::ptr::null_mut(), || {
        Ok(new_handle(Arc::new(Net::new(
            slice(sizes, n_sizes)?,
            slice(numbers, count)?,
        )?)))
    })
}

/// Free a network.
///
/// # Safety
/// `net` came from `tl_net_new` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn tl_net_free(net: Handle<Arc<Net>>) {
    free_handle(net)
}

/// The outputs (logits) of `n_actions` actions of one decision into `out`, from the network's exact pass
/// ([`Net::logits`], `blocked` 0: the server's estimates) or the playouts' ([`Net::blocked_logits`], 1, in `f32`,
/// written as `f64`): the network's outputs an action, action by action. `shared` holds the indices of the inputs
/// that are 1 for every action, `own` each action's own indices one after another, and `ends[k]` where action `k`'s
/// end in `own`. 0, or -1.
///
/// # Safety
/// `net` is a live handle; `shared` points at `n_shared` numbers, `ends` at `n_actions` and `own` at the last end's
/// count; `out` at the network's outputs times `n_actions` writable numbers.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // a decision's inputs, as Python passes them
pub unsafe extern "C" fn tl_net_logits(
    net: Handle<Arc<Net>>,
    shared: *const u32,
    n_shared: usize,
    own: *const u32,
    ends: *const u32,
    n_actions: usize,
    blocked: bool,
    out: *mut f64,
) -> i32 {
    guard(-1, || {
        let net = open(net)?;
        let ends = slice(ends, n_actions)?;
        if ends.windows(2).any(|w| w[1] < w[0]) {
            return Err("the actions' ends go down".into());
        }
        let own = slice(own, ends.last().map_or(0, |&e| e as usize))?;
        let width = net.outputs();
        if n_actions > 0 && out.is_null() {
            return Err("a null pointer for the outputs".into());
        }
        let shared = slice(shared, n_shared)?;
        let (mut situation, mut situation32) = (Vec::new(), Vec::new());
        if blocked {
            net.check(shared)?;
            net.situation32(shared, &mut situation32);
        } else {
            situation = net.situation(shared)?;
        }
        let (mut layer, mut outs32) = (Vec::new(), vec![0.0f32; width]);
        let mut start = 0;
        for (k, &end) in ends.iter().enumerate() {
            let written = std::slice::from_raw_parts_mut(out.add(k * width), width);
            let indices = &own[start..end as usize];
            if blocked {
                net.check(indices)?;
                net.blocked_logits(&situation32, indices, &mut layer, &mut outs32);
                for (w, &x) in written.iter_mut().zip(&outs32) {
                    *w = f64::from(x);
                }
            } else {
                net.logits(&situation, indices, written)?;
            }
            start = end as usize;
        }
        Ok(0)
    })
}
