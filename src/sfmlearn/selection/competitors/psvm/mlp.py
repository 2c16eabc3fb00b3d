"""A small tanh network for the nonlinear P-SVM (PSVM 4, Algorithm 1), written out by hand.

scikit-learn's MLPRegressor exposes neither a clamped forward pass nor the derivative of
the output with respect to a hidden unit's net input, which Algorithm 1 needs
(:func:`unit_targets`); so the forward and backward passes are here, and training is
full-batch L-BFGS (:func:`train_mlp`).
"""

import numpy as np
import scipy.optimize

__all__ = ["train_mlp", "unit_targets"]


def _unpack(theta, sizes):
    """Weights and biases of each layer from one flat parameter vector."""
    layers, start = [], 0
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        W = theta[start:start + fan_in * fan_out].reshape(fan_in, fan_out)
        start += fan_in * fan_out
        layers.append((W, theta[start:start + fan_out]))
        start += fan_out
    return layers


def _forward(layers, X, clamp=None):
    """Activations of every layer (tanh everywhere); ``clamp`` zeroes one first-layer net."""
    activations = [X]
    for depth, (W, b) in enumerate(layers):
        net = activations[-1] @ W + b
        if depth == 0 and clamp is not None:
            net[:, clamp] = 0.0
        activations.append(np.tanh(net))
    return activations


def _backward(layers, activations, delta_out):
    """Gradients of sum_i delta_out_i * out_i wrt every (W, b); also the first-layer deltas."""
    grads = []
    delta = delta_out[:, None] * (1.0 - activations[-1] ** 2)
    for depth in range(len(layers) - 1, -1, -1):
        W, _ = layers[depth]
        grads.append((activations[depth].T @ delta, delta.sum(axis=0)))
        if depth > 0:
            delta = (delta @ W.T) * (1.0 - activations[depth] ** 2)
    grads.reverse()
    return grads, delta


def train_mlp(X, target, sizes, error_ratio, weight_decay, max_iter, rng):
    """Train the tanh network; returns (layers, final error, initial error, reason, n_iter).

    Full-batch L-BFGS on E + weight_decay / (2 m) * sum of squared weights (not biases; the
    weight decay of scikit-learn's MLP), E = 1/2 mean_i (out_i - t_i)^2. Training stops
    as soon as E <= error_ratio * E(initial weights) (reason "goal"), or when L-BFGS
    converges on the regularised objective ("converged") or runs out of iterations
    ("max_iter"). Initial weights are Glorot-uniform, biases uniform in [-1, 1] so that
    hidden units start in their curved range (zero biases give tanh''(b) = 0 and no
    gradient towards even functions such as x1^2 + x2^2).
    """
    theta0 = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = np.sqrt(6.0 / (fan_in + fan_out))
        theta0.append(rng.uniform(-bound, bound, fan_in * fan_out))
        theta0.append(rng.uniform(-1.0, 1.0, fan_out))
    theta0 = np.concatenate(theta0)
    m = X.shape[0]

    def error(theta):
        residual = _forward(_unpack(theta, sizes), X)[-1][:, 0] - target
        return 0.5 * float(residual @ residual) / m

    def objective_and_gradient(theta):
        layers = _unpack(theta, sizes)
        activations = _forward(layers, X)
        residual = activations[-1][:, 0] - target
        grads, _ = _backward(layers, activations, residual / m)
        flat = np.concatenate([np.r_[(gW + weight_decay / m * W).ravel(), gb]
                               for (gW, gb), (W, _) in zip(grads, layers)])
        decay = 0.5 * weight_decay / m * sum(float((W * W).sum()) for W, _ in layers)
        return 0.5 * float(residual @ residual) / m + decay, flat

    initial = error(theta0)
    goal = error_ratio * initial
    reached = {}
    n_iter = [0]

    def stop_at_goal(xk):
        n_iter[0] += 1
        if error(xk) <= goal:
            reached["theta"] = np.array(xk)
            raise StopIteration

    try:
        result = scipy.optimize.minimize(
            objective_and_gradient, theta0, jac=True, method="L-BFGS-B", callback=stop_at_goal,
            options={"maxiter": max_iter, "gtol": 1e-9, "ftol": 1e-12},
        )
        theta = reached.get("theta", result.x)
        reason = "goal" if "theta" in reached else ("max_iter" if result.nit >= max_iter
                                                   else "converged")
    except StopIteration:  # scipy < 1.11 lets the callback's StopIteration through
        theta, reason = reached["theta"], "goal"
    return _unpack(theta, sizes), error(theta), initial, reason, n_iter[0]


def unit_targets(layers, X):
    """y_{l,i} = -de_l/dnet_l for each first-hidden-layer unit l (PSVM eq. 13).

    With net_l clamped to 0 the network outputs y~_l(x_i); e_l = 1/2 (y~_l - y(x_i))^2
    measures the change against the trained output y(x_i), so
    y_{l,i} = -(y~_l(x_i) - y(x_i)) * dy~_l/dnet_l, the derivative taken at net_l = 0.
    Returns an array of shape (n_hidden, n_samples).
    """
    output = _forward(layers, X)[-1][:, 0]
    targets = np.empty((layers[0][0].shape[1], X.shape[0]))
    for unit in range(targets.shape[0]):
        activations = _forward(layers, X, clamp=unit)
        clamped = activations[-1][:, 0]
        _, first_delta = _backward(layers, activations, np.ones(X.shape[0]))
        # first_delta = dy~/dnet_1 (tanh'(0) = 1 at the clamped unit).
        targets[unit] = -(clamped - output) * first_delta[:, unit]
    return targets
