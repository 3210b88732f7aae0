"""The inputs and calls of the matrix-function and special-function checks against MindSpore
2.10's recorded values: one table shared by the recording script (run with MindSpore) and the
test (run with hookgrad). Each call is text evaluated with ``ops``, ``ms`` (the framework) and
``T`` (the named input as a Tensor); a pair holds MindSpore's call, then hookgrad's (where
MindSpore's result is complex and hookgrad's real)."""
import numpy as np

_rng = np.random.default_rng(20)
_s = _rng.standard_normal((3, 3)) + 3 * np.eye(3)
INPUTS = {
    'a33': _rng.standard_normal((2, 3, 3)) + 3 * np.eye(3),
    'neg33': np.array([[0., 1., 0.], [1., 0., 0.], [0., 0., 2.]]),
    'spd': (lambda m: m @ m.swapaxes(-1, -2) + np.eye(3))(_rng.standard_normal((2, 3, 3))),
    'a34': _rng.standard_normal((2, 3, 4)),
    'a43': _rng.standard_normal((4, 3)),
    'rhs': _rng.standard_normal((2, 3, 2)),
    'real_eig': _s @ np.diag([2.5, -1.0, 0.5]) @ np.linalg.inv(_s),
    'x45': np.arange(20.).reshape(4, 5),
    'x245': np.arange(40.).reshape(2, 4, 5) - 7,
    'd3': np.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]),
    'v3': np.array([1., -2., 3.]),
    'w3': np.array([0.5, 4., -1.]),
    'b23': _rng.standard_normal((2, 3)),
    'c23': _rng.standard_normal((2, 3)),
    'x3': np.array([0., 1.5, 4.]),
    'rows': _rng.standard_normal((4, 3)),
    'lu': _rng.standard_normal((3, 3)),
    'lu34': _rng.standard_normal((3, 4)),
    'piv': np.array([2, 3, 3], np.int32),
    'pos': np.array([0.3, 0.5, 1.0, 2.5, 7.0, 15.0]),
    'neg': np.array([-0.5, -1.5, -2.7, 0.2]),
    'big': np.array([2.5, 3.0, 4.2, 8.0, 20.0]),
    'a_ig': np.array([0.5, 1.0, 2.0, 5.0, 12.0, 3.0]),
    'x_ig': np.array([0.2, 3.0, 1.5, 10.0, 9.0, 0.0]),
    'zx': np.array([1.5, 2.0, 3.3, 6.0, 2.0]),
    'zq': np.array([0.3, 1.0, 2.5, 7.0, 0.5]),
    'u': np.array([-0.95, -0.3, 0.0, 0.4, 0.99]),
    'ints': np.array([1, 2, 3]),
}

CALLS = {
    'det': "ops.det(T('a33'))",
    'matrix_determinant': "ops.matrix_determinant(T('a33'))",
    'logdet': "ops.logdet(T('spd'))",
    'logdet_negative': "ops.logdet(T('neg33'))",
    'slogdet': "ops.slogdet(T('a33'))",
    'log_matrix_determinant': "ops.log_matrix_determinant(T('neg33'))",
    'inverse': "ops.inverse(T('a33'))",
    'MatrixInverse_adjoint': "ops.MatrixInverse(True)(T('a33'))",
    'matrix_power_3': "ops.matrix_power(T('a33'), 3)",
    'matrix_power_neg': "ops.matrix_power(T('a33'), -2)",
    'matrix_power_0': "ops.matrix_power(T('a33'), 0)",
    'matrix_solve': "ops.matrix_solve(T('a33'), T('rhs'))",
    'matrix_solve_adjoint': "ops.matrix_solve(T('a33'), T('rhs'), True)",
    'pinv': "ops.pinv(T('a34'))",
    'pinv_tall': "ops.pinv(T('a43'))",
    'svd_s': "ops.svd(T('a34'), compute_uv=False)",
    'svd_polar': "(lambda r: (r[0], ops.matmul(r[1], ops.swapaxes(r[2], -1, -2))))("
                 "ops.svd(T('a34')))",
    'svd_full_shapes': "(lambda r: (r[0], ops.abs(r[1]), ops.abs(r[2][..., :3])))("
                       "ops.svd(T('a43').swapaxes(0, 1), full_matrices=True))",
    'eigvals': "ops.sort(ops.real(ops.eigvals(T('real_eig'))))[0]",
    'eig_vectors': "(lambda r: ops.abs(ops.real(r[1][:, ops.sort(ops.real(r[0]))[1]])))("
                   "ops.eig(T('real_eig')))",
    'matrix_band_part': "ops.matrix_band_part(T('x245'), 1, 2)",
    'matrix_band_part_lower_all': "ops.matrix_band_part(T('x45'), -1, 0)",
    'matrix_diag_part': "ops.matrix_diag_part(T('x245'), ms.Tensor(np.array([-1, 2]), "
                        "ms.int32), ms.Tensor(np.float64(-9)))",
    'matrix_diag_part_left_right': "ops.matrix_diag_part(T('x45'), ms.Tensor(np.array([-2, 1]),"
                                   " ms.int32), ms.Tensor(np.float64(0)), 'LEFT_RIGHT')",
    'matrix_diag_part_one': "ops.matrix_diag_part(T('x245'), ms.Tensor(1, ms.int32), "
                            "ms.Tensor(np.float64(0)))",
    'matrix_diag': "ops.matrix_diag(T('v3'), 1)",
    'matrix_diag_band': "ops.matrix_diag(T('d3'), ms.Tensor(np.array([-1, 1]), ms.int32), "
                        "ms.Tensor(3, ms.int32), ms.Tensor(4, ms.int32), "
                        "ms.Tensor(np.float64(7)), 'LEFT_LEFT')",
    'matrix_set_diag': "ops.matrix_set_diag(T('x45'), T('x45')[0, :4] * -1)",
    'matrix_set_diag_band': "ops.matrix_set_diag(T('x45'), ms.Tensor(np.arange(12.).reshape(3, "
                            "4)), ms.Tensor(np.array([-1, 1]), ms.int32), 'RIGHT_RIGHT')",
    'lu_unpack': "ops.lu_unpack(T('lu'), T('piv'))",
    'lu_unpack_wide': "ops.lu_unpack(T('lu34'), T('piv'))",
    'cross': "ops.cross(T('b23'), T('c23'))",
    'cov': "ops.cov(T('b23'))",
    'cov_correction0': "ops.cov(T('rows'), correction=0)",
    'dist': "ops.dist(ops.cast(T('b23'), ms.float32), ops.cast(T('c23'), ms.float32))",
    'dist_p1': "ops.dist(ops.cast(T('b23'), ms.float32), ops.cast(T('c23'), ms.float32), 1)",
    'pdist': "ops.pdist(T('rows'))",
    'pdist_p1': "ops.pdist(T('rows'), 1.0)",
    'mv': "ops.mv(T('a43'), T('v3'))",
    'vecdot': "ops.vecdot(T('b23'), T('c23'))",
    'vecdot_axis0': "ops.vecdot(T('b23'), T('c23'), axis=0)",
    'adjoint': "ops.adjoint(T('a34'))",
    'trapz': "ops.trapz(T('b23'))",
    'trapz_x': "ops.trapz(T('b23'), T('x3'))",
    'trapz_dx': "ops.trapz(T('b23'), dx=0.5, dim=0)",
    'vander': "ops.vander(T('v3'))",
    'vander_n': "ops.vander(T('v3'), 5)",
    'diagflat': "ops.diagflat(T('b23'), -1)",
    'block_diag': "ops.block_diag(T('b23'), T('v3'), T('a43'))",
    'cartesian_prod': "ops.cartesian_prod(T('v3'), T('x3'))",
    'combinations': "ops.combinations(T('v3'))",
    'combinations_replace': "ops.combinations(T('w3'), 2, True)",
    'tril_indices': "ops.tril_indices(4, 3, -1)",
    'triu_indices': "ops.triu_indices(3, 5, 1, dtype=ms.int32)",
    'logspace': "ops.logspace(-1.0, 2.0, 4)",
    'logspace_base': "ops.logspace(0.0, 3.0, 4, 2, dtype=ms.float64)",
    'ldexp': "ops.ldexp(T('b23'), ms.Tensor(np.array([1, -2, 3])))",
    'renorm': "ops.renorm(T('a34'), 2, 1, 1.5)",
    'lgamma': "ops.lgamma(T('pos'))",
    'lgamma_negative': "ops.lgamma(T('neg'))",
    'digamma': "ops.digamma(T('pos'))",
    'digamma_negative': "ops.digamma(T('neg'))",
    'polygamma_1': "ops.polygamma(ms.Tensor(1), T('pos'))",
    'polygamma_3': "ops.polygamma(ms.Tensor(3), T('pos'))",
    'polygamma_0': "ops.polygamma(ms.Tensor(0), T('pos'))",
    'polygamma_negative': "ops.polygamma(ms.Tensor(2), T('neg'))",
    'mvlgamma': "ops.mvlgamma(T('big'), 3)",
    'igamma': "ops.igamma(T('a_ig'), T('x_ig'))",
    'igammac': "ops.igammac(T('a_ig'), T('x_ig'))",
    'erfinv': "ops.erfinv(T('u'))",
    'zeta': "ops.zeta(T('zx'), T('zq'))",
    'Polygamma': "ops.Polygamma()(ms.Tensor(2), T('pos'))",
    'Igammac': "ops.Igammac()(T('a_ig'), T('x_ig'))",
    'Zeta': "ops.Zeta()(T('zx'), T('zq'))",
    'MatrixPower': "ops.MatrixPower(2)(T('a33'))",
    'MatrixSolve': "ops.MatrixSolve(True)(T('a33'), T('rhs'))",
    'LuUnpack': "ops.LuUnpack()(T('lu'), T('piv'))",
    'Renorm': "ops.Renorm(1, 0, 2.0)(T('b23'))",
    'Pdist': "ops.Pdist(3.0)(T('rows'))",
    'Mvlgamma': "ops.Mvlgamma(2)(T('big'))",
}


def call(name, ms, ops, framework):
    """The result of CALLS[name] run on ``framework`` ('mindspore' or 'hookgrad')."""
    source = CALLS[name]
    if isinstance(source, tuple):
        source = source[0] if framework == 'mindspore' else source[1]
    tensors = {'T': lambda key: ms.Tensor(INPUTS[key]), 'ops': ops, 'ms': ms, 'np': np}
    return eval(source, tensors)
