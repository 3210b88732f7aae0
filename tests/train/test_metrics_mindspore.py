"""MindSpore 2.10's metrics added beside the classic ones (confusion matrices, ROC/auc, cosine
similarity, Dice, perplexity, BLEU, surface distances, occlusion sensitivity): every value,
and every case MindSpore rejects, as MindSpore 2.10 computes it on the same inputs."""
import numpy as np
import pytest

from hookgrad import Tensor, nn
from hookgrad import train as T


def _run(metric, *updates):
    """``metric`` cleared, updated with each tuple of inputs, evaluated."""
    metric.clear()
    for inputs in updates:
        metric.update(*inputs)
    return metric.eval()


class _Linear(nn.Cell):
    """Scores of an image: a Dense layer on the flattened input."""

    def __init__(self, weight, bias):
        super().__init__()
        self.fc = nn.Dense(12, 3)
        self.fc.weight.set_data(Tensor(weight))
        self.fc.bias.set_data(Tensor(bias))

    def construct(self, x):
        return self.fc(x.reshape(x.shape[0], -1))


_RATES = ['sensitivity', 'specificity', 'precision', 'negative predictive value', 'miss rate',
          'fall out', 'false discovery rate', 'false omission rate', 'prevalence threshold',
          'threat score', 'accuracy', 'balanced accuracy', 'f1 score',
          'matthews correlation coefficient', 'fowlkes mallows index', 'informedness',
          'markedness']
_BLEU_CANDIDATES = [['i', 'have', 'a', 'pen', 'on', 'my', 'desk'],
                    ['the', 'cat', 'sat', 'on', 'the', 'mat']]
_BLEU_REFERENCES = [[['i', 'have', 'a', 'red', 'pen', 'on', 'my', 'desk'],
                     ['there', 'is', 'a', 'pen', 'on', 'my', 'desk']],
                    [['the', 'cat', 'is', 'on', 'the', 'mat'],
                     ['there', 'is', 'a', 'cat', 'on', 'the', 'mat']]]


def _cases():
    """{case: value, or the error's class name}: the MindSpore script that gave EXPECTED, with
    its inputs drawn in the same order from the same generator."""
    rng = np.random.default_rng(0)
    cases = {}                                   # case -> a call giving the value

    yp = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3],
                   [0.5, 0.2, 0.3]])
    yt = np.array([1, 0, 2, 2, 1])
    for norm in ['no_norm', 'target', 'prediction', 'all']:
        cases[f'cm_{norm}'] = lambda norm=norm: _run(T.ConfusionMatrix(3, normalize=norm),
                                                     (yp, yt))
    cases['cm_thr'] = lambda: _run(T.ConfusionMatrix(2, threshold=0.6),
                                   (np.array([0.7, 0.2, 0.9, 0.5]), np.array([1, 0, 0, 1])))

    p = (rng.random((3, 3, 4, 4)) > 0.5).astype(np.float32)
    t = (rng.random((3, 3, 4, 4)) > 0.5).astype(np.float32)
    for n in _RATES:
        for per_sample in (False, True):
            for skip in (True, False):
                cases[f'cmm_{n}_{per_sample}_{skip}'] = \
                    lambda n=n, c=per_sample, s=skip: _run(T.ConfusionMatrixMetric(
                        skip_channel=s, metric_name=n, calculation_method=c), (p, t), (t, p))
    for dec in ['none', 'mean', 'sum', 'sum_batch', 'mean_channel', 'sum_channel']:
        cases[f'cmm_dec_{dec}'] = lambda dec=dec: _run(T.ConfusionMatrixMetric(
            metric_name='f1', calculation_method=True, decrease=dec), (p[:1], t[:1]))
    x2 = np.array([[0, 1], [1, 0], [1, 0], [0, 1]], np.float32)
    y2 = np.array([[0, 1], [0, 1], [1, 0], [1, 0]], np.float32)
    cases['cmm_2d'] = lambda: _run(T.ConfusionMatrixMetric(metric_name='tpr'), (x2, y2))

    xc = rng.standard_normal((4, 3))
    for sim in ['cosine', 'dot']:
        for red in ['none', 'sum', 'mean']:
            for zd in (True, False):
                cases[f'cos_{sim}_{red}_{zd}'] = \
                    lambda sim=sim, red=red, zd=zd: _run(T.CosineSimilarity(sim, red, zd), (xc,))
    cases['dice'] = lambda: _run(
        T.Dice(), (np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.1]]),
                   np.array([[0, 1], [1, 0], [1, 0]])),
        (np.array([[0.6, 0.4]]), np.array([[1, 0]])))

    pp = rng.random((6, 4))
    pp /= pp.sum(-1, keepdims=True)
    lab = np.array([1, 0, 3, 2, 2, 1])
    for ig in (None, 2):
        cases[f'ppl_{ig}'] = lambda ig=ig: _run(T.Perplexity(ignore_label=ig), (pp, lab),
                                                (pp[:2], lab[:2]))

    sc = np.array([0.1, 0.4, 0.35, 0.8, 0.4, 0.7])
    ys = np.array([0, 0, 1, 1, 1, 0])
    for pl in (1, 0):
        cases[f'roc_{pl}'] = lambda pl=pl: _run(T.ROC(pos_label=pl), (sc, ys))
    xm = np.array([[0.28, 0.55, 0.15], [0.10, 0.20, 0.70], [0.20, 0.05, 0.75]])
    cases['roc_multi'] = lambda: _run(T.ROC(class_num=3), (xm, np.array([0, 1, 2])))
    cases['auc_roc'] = lambda: T.auc(*_run(T.ROC(pos_label=1), (sc, ys))[:2])
    cases['auc_dec'] = lambda: T.auc(np.array([3., 2., 1.]), np.array([1., 4., 2.]))
    cases['auc_reorder'] = lambda: T.auc(np.array([2., 1., 3.]), np.array([1., 4., 2.]),
                                         reorder=True)
    cases['auc_bad'] = lambda: T.auc(np.array([2., 1., 3.]), np.array([1., 4., 2.]))

    for n in (1, 2, 3, 4):
        for smooth in (False, True):
            cases[f'bleu_{n}_{smooth}'] = lambda n=n, sm=smooth: _run(
                T.BleuScore(n, sm), (_BLEU_CANDIDATES, _BLEU_REFERENCES))

    a = np.zeros((7, 8), np.int32)
    a[1:4, 2:6] = 1
    a[5, 1] = 1
    b = np.zeros((7, 8), np.int32)
    b[2:6, 3:7] = 1
    a3 = (rng.random((5, 6, 4)) > 0.6).astype(np.int32)
    b3 = (rng.random((5, 6, 4)) > 0.6).astype(np.int32)
    for dm in ['euclidean', 'chessboard', 'taxicab']:
        for pct in (None, 50.0):
            for directed in (False, True):
                for crop in (True, False):
                    cases[f'hd_{dm}_{pct}_{directed}_{crop}'] = \
                        lambda dm=dm, pct=pct, d=directed, c=crop: _run(
                            T.HausdorffDistance(dm, pct, d, c), (a, b, 1))
        cases[f'hd3_{dm}'] = lambda dm=dm: _run(T.HausdorffDistance(dm), (a3, b3, 1))
        for sym in (False, True):
            for cls in ('MeanSurfaceDistance', 'RootMeanSquareDistance'):
                make = getattr(T, cls)
                cases[f'{cls}_{dm}_{sym}'] = lambda m=make, s=sym, dm=dm: _run(m(s, dm),
                                                                               (a, b, 1))
                cases[f'{cls}3_{dm}_{sym}'] = lambda m=make, s=sym, dm=dm: _run(m(s, dm),
                                                                                (a3, b3, 1))
    row = np.zeros((5, 6), np.int32)
    row[2, 1:5] = 1
    cases['hd_row'] = lambda: _run(T.HausdorffDistance(), (row, b[:5, :6], 1))

    net = _Linear(rng.standard_normal((3, 12)).astype(np.float32),
                  rng.standard_normal(3).astype(np.float32))
    img = Tensor(rng.standard_normal((1, 1, 3, 4)).astype(np.float32))
    for kw in [{}, {'margin': 1, 'n_batch': 5},
               {'pad_val': 0.5, 'margin': 1, 'b_box': [0, -1, 1, 2, 0, 2]}]:
        cases[f'occ_{sorted(kw.items())}'] = lambda kw=kw: _run(T.OcclusionSensitivity(**kw),
                                                                (net, img, np.array(1)))
    out = {}
    for case, call in cases.items():
        try:
            out[case] = call()
        except Exception as e:                   # noqa: BLE001  (the error's class is the value)
            out[case] = type(e).__name__
    return out


# computed once with MindSpore 2.10 (CPU) from the same inputs
EXPECTED = {
    'cm_no_norm': [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]],
    'cm_target': [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]],
    'cm_prediction': [[0.5, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 1.0]],
    'cm_all': [[0.2, 0.0, 0.0], [0.2, 0.2, 0.0], [0.0, 0.2, 0.2]],
    'cm_thr': [[1.0, 1.0], [1.0, 1.0]],
    'cmm_sensitivity_False_True': [0.5375],
    'cmm_sensitivity_False_False': [0.581818181818],
    'cmm_sensitivity_True_True': 0.5306096681096681,
    'cmm_sensitivity_True_False': 0.5788510101010101,
    'cmm_specificity_False_True': [0.421875],
    'cmm_specificity_False_False': [0.439024390244],
    'cmm_specificity_True_True': 0.4222703222703223,
    'cmm_specificity_True_False': 0.4257936507936508,
    'cmm_precision_False_True': [0.5375],
    'cmm_precision_False_False': [0.581818181818],
    'cmm_precision_True_True': 0.5306096681096681,
    'cmm_precision_True_False': 0.5788510101010101,
    'cmm_negative predictive value_False_True': [0.421875],
    'cmm_negative predictive value_False_False': [0.439024390244],
    'cmm_negative predictive value_True_True': 0.4222703222703223,
    'cmm_negative predictive value_True_False': 0.4257936507936508,
    'cmm_miss rate_False_True': [0.4625],
    'cmm_miss rate_False_False': [0.418181818182],
    'cmm_miss rate_True_True': 0.46939033189033186,
    'cmm_miss rate_True_False': 0.42114898989898997,
    'cmm_fall out_False_True': [0.578125],
    'cmm_fall out_False_False': [0.560975609756],
    'cmm_fall out_True_True': 0.5777296777296778,
    'cmm_fall out_True_False': 0.5742063492063492,
    'cmm_false discovery rate_False_True': [0.4625],
    'cmm_false discovery rate_False_False': [0.418181818182],
    'cmm_false discovery rate_True_True': 0.46939033189033186,
    'cmm_false discovery rate_True_False': 0.42114898989898997,
    'cmm_false omission rate_False_True': [0.578125],
    'cmm_false omission rate_False_False': [0.560975609756],
    'cmm_false omission rate_True_True': 0.5777296777296778,
    'cmm_false omission rate_True_False': 0.5742063492063492,
    'cmm_prevalence threshold_False_True': [0.509106661363],
    'cmm_prevalence threshold_False_False': [0.495440055384],
    'cmm_prevalence threshold_True_True': 0.5127259842814001,
    'cmm_prevalence threshold_True_False': 0.491830921720122,
    'cmm_threat score_False_True': [0.367521367521],
    'cmm_threat score_False_False': [0.410256410256],
    'cmm_threat score_True_True': 0.3819834486501153,
    'cmm_threat score_True_False': 0.4264550264550264,
    'cmm_accuracy_False_True': [0.486111111111],
    'cmm_accuracy_False_False': [0.520833333333],
    'cmm_accuracy_True_True': 0.48611111111111116,
    'cmm_accuracy_True_False': 0.5208333333333334,
    'cmm_balanced accuracy_False_True': [0.4796875],
    'cmm_balanced accuracy_False_False': [0.510421286031],
    'cmm_balanced accuracy_True_True': 0.4764399951899952,
    'cmm_balanced accuracy_True_False': 0.5023223304473304,
    'cmm_f1 score_False_True': [0.5375],
    'cmm_f1 score_False_False': [0.581818181818],
    'cmm_f1 score_True_True': 0.5223071170697589,
    'cmm_f1 score_True_False': 0.5716959697222855,
    'cmm_matthews correlation coefficient_False_True': [-0.040625],
    'cmm_matthews correlation coefficient_False_False': [0.020842572062],
    'cmm_matthews correlation coefficient_True_True': -0.046860360352440546,
    'cmm_matthews correlation coefficient_True_False': 0.004935926046170491,
    'cmm_fowlkes mallows index_False_True': [0.5375],
    'cmm_fowlkes mallows index_False_False': [0.581818181818],
    'cmm_fowlkes mallows index_True_True': 0.5264130000168197,
    'cmm_fowlkes mallows index_True_False': 0.5752562555856073,
    'cmm_informedness_False_True': [-0.040625],
    'cmm_informedness_False_False': [0.020842572062],
    'cmm_informedness_True_True': -0.04712000962000962,
    'cmm_informedness_True_False': 0.004644660894660886,
    'cmm_markedness_False_True': [-0.040625],
    'cmm_markedness_False_False': [0.020842572062],
    'cmm_markedness_True_True': -0.04712000962000962,
    'cmm_markedness_True_False': 0.004644660894660886,
    'cmm_dec_none': 'ValueError',
    'cmm_dec_mean': 0.4804494897374154,
    'cmm_dec_sum': 1.4413484692122462,
    'cmm_dec_sum_batch': 'ValueError',
    'cmm_dec_mean_channel': 0.4804494897374154,
    'cmm_dec_sum_channel': 1.4413484692122462,
    'cmm_2d': [0.5],
    'cos_cosine_none_True': [[0.0, 0.719237747325, 0.485032826973, -0.64779710929],
                             [0.719237747325, 0.0, 0.410522424207, -0.375261617618],
                             [0.485032826973, 0.410522424207, 0.0, 0.350346418243],
                             [-0.64779710929, -0.375261617618, 0.350346418243, 0.0]],
    'cos_cosine_none_False': [[1.0, 0.719237747325, 0.485032826973, -0.64779710929],
                              [0.719237747325, 1.0, 0.410522424207, -0.375261617618],
                              [0.485032826973, 0.410522424207, 1.0, 0.350346418243],
                              [-0.64779710929, -0.375261617618, 0.350346418243, 1.0]],
    'cos_cosine_sum_True': [0.556473465008, 0.754498553914, 1.245901669423, -0.672712308664],
    'cos_cosine_sum_False': [1.556473465008, 1.754498553914, 2.245901669423, 0.327287691336],
    'cos_cosine_mean_True': [0.139118366252, 0.188624638479, 0.311475417356, -0.168178077166],
    'cos_cosine_mean_False': [0.389118366252, 0.438624638479, 0.561475417356, 0.081821922834],
    'cos_dot_none_True': [[0.0, 3.436758623123, 2.883063972048, -2.664594574927],
                          [3.436758623123, 0.0, 1.308027853608, -0.827414716106],
                          [2.883063972048, 1.308027853608, 0.0, 0.960933566171],
                          [-2.664594574927, -0.827414716106, 0.960933566171, 0.0]],
    'cos_dot_none_False': [[8.914143026466, 3.436758623123, 2.883063972048, -2.664594574927],
                           [3.436758623123, 2.561377084414, 1.308027853608, -0.827414716106],
                           [2.883063972048, 1.308027853608, 3.963571480366, 0.960933566171],
                           [-2.664594574927, -0.827414716106, 0.960933566171, 1.898036978333]],
    'cos_dot_sum_True': [3.655228020244, 3.917371760624, 5.152025391826, -2.531075724862],
    'cos_dot_sum_False': [12.56937104671, 6.478748845038, 9.115596872191, -0.633038746529],
    'cos_dot_mean_True': [0.913807005061, 0.979342940156, 1.288006347956, -0.632768931216],
    'cos_dot_mean_False': [3.142342761677, 1.619687211259, 2.278899218048, -0.158259686632],
    'dice': 0.39926688054253945,
    'ppl_None': 4.713325374310123,
    'ppl_2': 4.368574445477677,
    'roc_1': [[0.0, 0.0, 0.333333333333, 0.666666666667, 0.666666666667, 1.0],
              [0.0, 0.333333333333, 0.333333333333, 0.666666666667, 1.0, 1.0],
              [1.8, 0.8, 0.7, 0.4, 0.35, 0.1]],
    'roc_0': [[0.0, 0.333333333333, 0.333333333333, 0.666666666667, 1.0, 1.0],
              [0.0, 0.0, 0.333333333333, 0.666666666667, 0.666666666667, 1.0],
              [1.8, 0.8, 0.7, 0.4, 0.35, 0.1]],
    'roc_multi': [[[0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0], [0.0, 0.0, 0.5, 1.0]],
                  [[0.0, 1.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]],
                  [[1.28, 0.28, 0.2, 0.1], [1.55, 0.55, 0.2, 0.05], [1.75, 0.75, 0.7, 0.15]]],
    'auc_roc': 0.6111111111111112,
    'auc_dec': 5.5,
    'auc_reorder': 4.0,
    'auc_bad': 'ValueError',
    'bleu_1_False': 0.9230769230769231,
    'bleu_1_True': 0.9285714285714286,
    'bleu_2_False': 0.8690481892534816,
    'bleu_2_True': 0.879664438186246,
    'bleu_3_False': 0.7486377759323337,
    'bleu_3_True': 0.774334198503121,
    'bleu_4_False': 0.5884191416232739,
    'bleu_4_True': 0.6459578006326265,
    'hd_euclidean_None_False_True': 2.23606797749979,
    'hd_euclidean_None_False_False': 2.23606797749979,
    'hd_euclidean_None_True_True': 2.0,
    'hd_euclidean_None_True_False': 2.0,
    'hd_euclidean_50.0_False_True': 1.0,
    'hd_euclidean_50.0_False_False': 1.0,
    'hd_euclidean_50.0_True_True': 1.0,
    'hd_euclidean_50.0_True_False': 1.0,
    'hd3_euclidean': 1.4142135623730951,
    'MeanSurfaceDistance_euclidean_False': 0.9467466874884632,
    'MeanSurfaceDistance3_euclidean_False': 0.5656579531225595,
    'RootMeanSquareDistance_euclidean_False': 1.1818181818181819,
    'RootMeanSquareDistance3_euclidean_False': 0.5769230769230769,
    'MeanSurfaceDistance_euclidean_True': 1.0838017412389351,
    'MeanSurfaceDistance3_euclidean_True': 0.5418336192215645,
    'RootMeanSquareDistance_euclidean_True': 1.2613124477737825,
    'RootMeanSquareDistance3_euclidean_True': 0.7484655428918028,
    'hd_chessboard_None_False_True': 2.0,
    'hd_chessboard_None_False_False': 2.0,
    'hd_chessboard_None_True_True': 2.0,
    'hd_chessboard_None_True_False': 2.0,
    'hd_chessboard_50.0_False_True': 1.0,
    'hd_chessboard_50.0_False_False': 1.0,
    'hd_chessboard_50.0_True_True': 1.0,
    'hd_chessboard_50.0_True_False': 1.0,
    'hd3_chessboard': 1.0,
    'MeanSurfaceDistance_chessboard_False': 0.9090909090909091,
    'MeanSurfaceDistance3_chessboard_False': 0.5576923076923077,
    'RootMeanSquareDistance_chessboard_False': 1.0909090909090908,
    'RootMeanSquareDistance3_chessboard_False': 0.5576923076923077,
    'MeanSurfaceDistance_chessboard_True': 1.0378787878787878,
    'MeanSurfaceDistance3_chessboard_True': 0.5288461538461539,
    'RootMeanSquareDistance_chessboard_True': 1.2091820425896227,
    'RootMeanSquareDistance3_chessboard_True': 0.7272180923534245,
    'hd_taxicab_None_False_True': 3.0,
    'hd_taxicab_None_False_False': 3.0,
    'hd_taxicab_None_True_True': 2.0,
    'hd_taxicab_None_True_False': 2.0,
    'hd_taxicab_50.0_False_True': 1.0,
    'hd_taxicab_50.0_False_False': 1.0,
    'hd_taxicab_50.0_True_True': 1.0,
    'hd_taxicab_50.0_True_False': 1.0,
    'hd3_taxicab': 2.0,
    'MeanSurfaceDistance_taxicab_False': 1.0,
    'MeanSurfaceDistance3_taxicab_False': 0.5769230769230769,
    'RootMeanSquareDistance_taxicab_False': 1.3636363636363635,
    'RootMeanSquareDistance3_taxicab_False': 0.6153846153846154,
    'MeanSurfaceDistance_taxicab_True': 1.1666666666666665,
    'MeanSurfaceDistance3_taxicab_True': 0.560200668896321,
    'RootMeanSquareDistance_taxicab_True': 1.3898986228564232,
    'RootMeanSquareDistance3_taxicab_True': 0.7892462853866692,
    'hd_row': 2.23606797749979,
    'occ_[]': [[-3.581016302109, -3.508736133575, -2.997885465622, -1.36726641655],
               [-4.661387443542, -4.534275531769, -2.862477302551, -0.060720443726],
               [-4.661387443542, -4.534275531769, -2.862477302551, -0.060720443726]],
    "occ_[('margin', 1), ('n_batch', 5)]": [[0.089311122894, -2.208966732025, -2.206187725067,
                                             0.109241485596],
                                            [-1.630619168282, -3.581016302109, -1.878116965294,
                                             0.583130836487],
                                            [-2.891067743301, -2.452420473099, 0.473669052124,
                                             1.689668655396]],
    "occ_[('b_box', [0, -1, 1, 2, 0, 2]), ('margin', 1), ('pad_val', 0.5)]": [[-2.38650894165,
                                                                               -5.357635974884,
                                                                               -3.350162506104],
                                                                              [-3.96338224411,
                                                                               -3.762522220612,
                                                                               -0.835606217384]]
}


def _same(got, want):
    if isinstance(want, str):
        return got == want
    if isinstance(got, (list, tuple)):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    got = np.asarray(got, dtype=float)           # float32 results (a network's) to 1e-6
    want = np.asarray(want, dtype=float)
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=1e-7,
                                                   equal_nan=True)


RESULTS = {}


@pytest.mark.parametrize('case', sorted(EXPECTED))
def test_value_matches_mindspore(case):
    if not RESULTS:
        RESULTS.update(_cases())
    got = RESULTS[case]
    assert not isinstance(got, str) or isinstance(EXPECTED[case], str), got
    assert _same(got, EXPECTED[case]), (got, EXPECTED[case])


def test_names_resolve_where_mindspore_has_them():
    from hookgrad.nn import metrics as nn_metrics
    for name in ['ConfusionMatrix', 'ConfusionMatrixMetric', 'CosineSimilarity', 'Dice',
                 'Perplexity', 'ROC', 'auc', 'BleuScore', 'HausdorffDistance',
                 'MeanSurfaceDistance', 'RootMeanSquareDistance', 'OcclusionSensitivity']:
        assert getattr(nn_metrics, name) is getattr(T, name)
        assert getattr(nn, name) is getattr(T, name)      # mindspore.nn has them too
    assert nn.names() == T.names() and nn.get_metrics is T.get_metrics
    assert T.get_metrics({'dice', 'perplexity'})['dice'].smooth == 1e-5


def test_update_keeps_accumulating_and_clear_resets():
    m = T.ConfusionMatrix(2)
    m.update(np.array([1, 0]), np.array([1, 1]))
    m.update(np.array([[0.9, 0.1]]), np.array([0]))         # scores: argmax over axis 1
    np.testing.assert_array_equal(m.eval(), [[1, 0], [1, 1]])
    m.clear()
    with pytest.raises(RuntimeError, match="ConfusionMatrix.eval: call update before eval"):
        m.eval()


_ones = np.ones((2, 2))


@pytest.mark.parametrize('call,err,match', [
    (lambda: T.ConfusionMatrix(2.0), TypeError, "num_classes must be an int, got float"),
    (lambda: T.ConfusionMatrix(2, normalize='rows'), ValueError, "normalize must be one of"),
    (lambda: T.ConfusionMatrix(2, threshold=1), TypeError, "threshold must be a float"),
    (lambda: T.ConfusionMatrix(2).update(_ones[None, None], np.ones(2)), ValueError,
     "must have the ndim of y or one more"),
    (lambda: T.ConfusionMatrix(2).update(np.array([0, 3]), np.array([0, 1])), ValueError,
     r"classes must lie in \[0, 2\)"),
    (lambda: T.ConfusionMatrixMetric(metric_name='hit ratio'), NotImplementedError,
     "'hit ratio' is not a known rate"),
    (lambda: T.ConfusionMatrixMetric(decrease='max'), ValueError, "decrease must be one of"),
    (lambda: T.ConfusionMatrixMetric(skip_channel=1), TypeError, "skip_channel must be a bool"),
    (lambda: T.ConfusionMatrixMetric().update(_ones, _ones * 0.5), ValueError,
     "y must be binary"),
    (lambda: T.ConfusionMatrixMetric().update(np.ones(2), np.ones(2)), ValueError,
     "at least 2 dimensions"),
    (lambda: T.ConfusionMatrixMetric().update(_ones, np.ones((2, 3))), ValueError,
     "must have one shape"),
    (lambda: T.ROC(class_num=2.0), TypeError, "class_num must be an int or None"),
    (lambda: T.ROC(class_num=3).update(np.ones(3), np.ones(3)), ValueError,
     "need class_num 1, got 3"),
    (lambda: T.ROC(class_num=3).update(_ones, np.ones(2)), ValueError,
     "class_num must be y_pred's number of columns 2, got 3"),
    (lambda: T.ROC(class_num=2, pos_label=1).update(_ones, np.ones(2)), ValueError,
     "pos_label must be None"),
    (lambda: _run(T.ROC(), (np.array([0.2, 0.4]), np.array([1, 1]))), ValueError,
     "no negative sample"),
    (lambda: _run(T.ROC(), (np.array([0.2, 0.4]), np.array([0, 0]))), ValueError,
     "no positive sample"),
    (lambda: T.ROC().eval(), RuntimeError, "ROC.eval: call update before eval"),
    (lambda: T.auc([0, 1], np.ones(2)), TypeError, "x and y must be NumPy arrays"),
    (lambda: T.auc(np.ones(2), np.ones(3)), ValueError, "the same number of points"),
    (lambda: T.auc(np.ones(1), np.ones(1)), ValueError, "at least 2 points"),
    (lambda: T.auc(np.ones((2, 2)), np.ones((2, 2))), ValueError, "1-D or 2-D with one column"),
    (lambda: T.auc(np.array([0., 2., 1.]), np.ones(3)), ValueError,
     "x must be increasing or decreasing"),
    (lambda: T.Perplexity(ignore_label='0'), TypeError, "ignore_label must be an int or None"),
    (lambda: T.Perplexity().update(np.ones((2, 3)), np.ones(3)), RuntimeError,
     "one entry per row of preds"),
    (lambda: T.Perplexity().eval(), RuntimeError, "no label was counted"),
    (lambda: T.CosineSimilarity('l2'), ValueError, "similarity must be one of"),
    (lambda: T.CosineSimilarity(reduction=None), TypeError, "reduction must be a str"),
    (lambda: T.CosineSimilarity(zero_diagonal=0), TypeError, "zero_diagonal must be a bool"),
    (lambda: T.CosineSimilarity().update(np.ones(3)), ValueError, "must be 2-D"),
    (lambda: T.CosineSimilarity().eval(), RuntimeError, "call update before eval"),
    (lambda: T.BleuScore(5), ValueError, r"n_gram must be in \[1, 4\], got 5"),
    (lambda: T.BleuScore(smooth=1), TypeError, "smooth must be a bool"),
    (lambda: T.BleuScore().update([['a']], []), ValueError, "corpora must be of one length"),
    (lambda: T.BleuScore().update([['a']]), ValueError, "expected 2 inputs"),
    (lambda: T.BleuScore().eval(), RuntimeError, "call update before eval"),
    (lambda: T.Dice(0.0), ValueError, "smooth must be a positive float"),
    (lambda: T.Dice().update(_ones, np.ones(2)), ValueError, "must have one shape"),
    (lambda: T.Dice().eval(), RuntimeError, "no sample was counted"),
    (lambda: T.HausdorffDistance('l2'), ValueError, "distance_metric must be one of"),
    (lambda: T.HausdorffDistance(percentile=50), TypeError, "percentile must be a float"),
    (lambda: T.HausdorffDistance(crop=None), TypeError, "crop must be a bool"),
    (lambda: T.HausdorffDistance().update(_ones, _ones), ValueError, "expected 3 inputs"),
    (lambda: T.HausdorffDistance().update(_ones, _ones, '1'), ValueError,
     "label_idx must be an int or float"),
    (lambda: T.HausdorffDistance().update(_ones, _ones, 2), ValueError,
     "label_idx 2 occurs in neither"),
    (lambda: T.HausdorffDistance().update(_ones, np.ones(3), 1), ValueError,
     "non-empty and of one shape"),
    (lambda: _run(T.HausdorffDistance(percentile=150.0), (_ones, _ones, 1)), ValueError,
     r"percentile must be in \[0, 100\]"),
    (lambda: T.MeanSurfaceDistance(symmetric=1), TypeError, "symmetric must be a bool"),
    (lambda: T.RootMeanSquareDistance().eval(), RuntimeError,
     "RootMeanSquareDistance.eval: call update before eval"),
    (lambda: T.OcclusionSensitivity(pad_val=0), TypeError, "pad_val must be a float"),
    (lambda: T.OcclusionSensitivity(n_batch=0), ValueError, "n_batch must be >= 1"),
    (lambda: T.OcclusionSensitivity(b_box=(0, 1)), TypeError, "b_box must be a list"),
    (lambda: T.OcclusionSensitivity().update(len, _ones[None], 0), TypeError,
     "model must be a Cell"),
    (lambda: T.OcclusionSensitivity().update(nn.ReLU(), _ones[None].repeat(2, 0), 0),
     RuntimeError, "batch size 1"),
    (lambda: T.OcclusionSensitivity(b_box=[0, 1]).update(nn.ReLU(), _ones[None], 0),
     ValueError, "b_box needs a min and a max for each of the 2"),
    (lambda: T.OcclusionSensitivity(b_box=[0, 5, 0, 1]).update(nn.ReLU(), _ones[None], 0),
     ValueError, "must lie inside the input's shape"),
    (lambda: T.OcclusionSensitivity().eval(), RuntimeError, "call update before eval"),
])
def test_errors(call, err, match):
    with pytest.raises(err, match=match):
        call()


def test_surface_distance_of_an_empty_surface_is_inf():
    a = np.zeros((4, 4))
    a[1:3, 1:3] = 1
    assert _run(T.HausdorffDistance(crop=False), (a, np.zeros((4, 4)), 1)) == np.inf
    assert _run(T.MeanSurfaceDistance(), (np.zeros((4, 4)), a, 1)) == np.inf
