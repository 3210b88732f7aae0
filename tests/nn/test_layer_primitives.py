"""Layers have the primitive attributes MindSpore 2.10's layers have, which model-zoo subclasses
call in their own ``construct`` (a ConvNeXt ``LayerNorm`` subclass calls ``self.layer_norm``),
with the layer's settings; BatchNorm's ``momentum`` attribute is MindSpore's (the batch's
weight, 1 - momentum)."""
import numpy as np
import pytest

import hookgrad as ms
from hookgrad import nn, ops

X = np.random.default_rng(0).standard_normal((2, 3, 5, 5)).astype(np.float32)


def test_layer_norm_subclass_calls_self_layer_norm():
    class ChannelsLastLayerNorm(nn.LayerNorm):          # the ConvNeXt pattern
        def construct(self, x):
            y, _, _ = self.layer_norm(x, self.gamma, self.beta)
            return y
    ln = ChannelsLastLayerNorm((5,), begin_norm_axis=-1, begin_params_axis=-1)
    y, mean, var = ln.layer_norm(ms.Tensor(X), ln.gamma, ln.beta)
    assert (y.shape, mean.shape, var.shape) == ((2, 3, 5, 5), (2, 3, 5, 1), (2, 3, 5, 1))
    np.testing.assert_allclose(ln(ms.Tensor(X)).asnumpy(),
                               nn.LayerNorm((5,), -1, -1)(ms.Tensor(X)).asnumpy(), rtol=1e-6)
    assert ln.layer_norm is ln.layer_norm                 # made once


def test_conv_dense_and_batch_norm_primitives_compute_what_the_layers_do():
    conv = nn.Conv2d(3, 4, 3, pad_mode='pad', padding=1, has_bias=True, bias_init='normal')
    x = ms.Tensor(X)
    np.testing.assert_allclose(
        conv.bias_add(conv.conv2d(x, conv.weight), conv.bias).asnumpy(), conv(x).asnumpy(),
        rtol=1e-5, atol=1e-6)
    dense = nn.Dense(5, 2)
    v = ms.Tensor(X.reshape(-1, 5))
    np.testing.assert_allclose(dense.bias_add(dense.matmul(v, dense.weight), dense.bias).asnumpy(),
                               dense(v).asnumpy(), rtol=1e-6)
    assert dense.shape_op(v) == (30, 5) and dense.reshape(v, (5, 30)).shape == (5, 30)
    bn = nn.BatchNorm2d(3)
    assert bn.momentum == pytest.approx(0.1)               # MindSpore 2.10: 1 - 0.9
    assert repr(bn).startswith("BatchNorm2d(num_features=3, eps=1e-05, momentum=0.9,")
    y = bn.bn_infer(x, bn.gamma, bn.beta, bn.moving_mean, bn.moving_variance)[0]
    np.testing.assert_allclose(y.asnumpy(), bn(x).asnumpy(), rtol=1e-6)


def test_embedding_dropout_and_activation_primitives():
    emb = nn.Embedding(10, 4)
    ids = ms.Tensor(np.int32([[1, 2], [3, 0]]))
    flat = emb.reshape_flat(ids, (-1,))
    rows = emb.gather(emb.embedding_table, flat, 0)
    np.testing.assert_array_equal(emb.reshape(rows, emb.get_shp(ids) + (4,)).asnumpy(),
                                  emb(ids).asnumpy())
    assert (emb.on_value, emb.off_value) == (1.0, 0.0)
    assert nn.Dropout(p=0.25).dropout.keep_prob == 0.75
    np.testing.assert_array_equal(nn.ReLU().relu(ms.Tensor([-1.0, 2.0])).asnumpy(), [0, 2])
    np.testing.assert_allclose(nn.Softmax().softmax(ms.Tensor([0.0, 0.0])).asnumpy(), [0.5, 0.5])
    with pytest.raises(AttributeError, match="no attribute 'layer_norm'"):
        nn.Dense(2, 2).layer_norm


def test_a_tied_weight_keeps_the_name_its_first_cell_gave_it():
    # BERT's decoder shares the embedding table: MindSpore 2.10 names it once, by the path
    # that first held it, so MindSpore checkpoints load by that name
    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(10, 4)
            self.decoder = nn.Dense(4, 10)
            self.decoder.weight = self.embedding.embedding_table

        def construct(self, x):
            return self.decoder(self.embedding(x))

    net = Tied()
    want = ['embedding.embedding_table', 'decoder.bias']
    assert [p.name for p in net.get_parameters()] == want
    assert list(net.parameters_dict()) == want
    outer = nn.SequentialCell(Tied())
    assert [p.name for p in outer.get_parameters()] == ['0.' + n for n in want]
    fresh = nn.Dense(4, 10)
    net.decoder.weight = ms.Parameter(fresh.weight.asnumpy())     # a new one: named by path
    assert net.decoder.weight.name == 'decoder.weight'
