"""Seed 004 (Paddle hook article): tensor hooks on leaves and on a non-leaf."""
import numpy as np

import hookgrad as ms


def test_tensor_hooks_example():
    printed = []

    def print_hook_fn(grad):
        printed.append(grad.asnumpy().copy())

    def double_hook_fn(grad):
        grad = grad * 2
        return grad

    x = ms.Tensor([0., 1., 2., 3.], requires_grad=True)
    y = ms.Tensor([4., 5., 6., 7.], requires_grad=True)
    z = ms.Tensor([1., 2., 3., 4.])
    h = x.register_hook(print_hook_fn)
    x.register_hook(double_hook_fn)
    w = x + y
    w.retain_grad()
    w.register_hook(lambda grad: grad * 2)
    o = z.matmul(w)
    o.backward()
    assert len(printed) == 1
    np.testing.assert_array_equal(printed[0], [2., 4., 6., 8.])
    np.testing.assert_array_equal(w.grad.asnumpy(), [1., 2., 3., 4.])
    np.testing.assert_array_equal(x.grad.asnumpy(), [4., 8., 12., 16.])
    np.testing.assert_array_equal(y.grad.asnumpy(), [2., 4., 6., 8.])
    h.remove()
    h.remove()      # idempotent
    o2 = z.matmul(x + y)
    o2.backward()
    assert len(printed) == 1                                     # removed hook stays silent
    np.testing.assert_array_equal(x.grad.asnumpy(), [6., 12., 18., 24.])   # accumulates


def test_plug_in_dropout2d_on_resnet18_train_and_predict_and_training():
    """Seed 004's DropHookModel: Dropout2d after layer4 and layer3 of a resnet18 by hooks.

    The seed feeds 224x224 images; 64x64 keeps the test fast and exercises the same code.
    """
    ms.set_seed(0)
    model = ms.vision.resnet18()
    names = [n for n, _ in model.parameters_and_names()]
    handles = [ms.nn.attach(model.layer4, ms.nn.Dropout2d(p=0.3)),
               ms.nn.attach(model.layer3, ms.nn.Dropout2d(p=0.3))]
    assert [n for n, _ in model.parameters_and_names()] == names
    test_data = ms.Tensor(np.random.default_rng(0).random((1, 3, 64, 64), dtype=np.float32))
    model.set_train()
    train_outs = [model(test_data).asnumpy() for _ in range(5)]
    assert all(not np.array_equal(train_outs[0], o) for o in train_outs[1:])
    model.set_train(False)
    eval_outs = [model(test_data).asnumpy() for _ in range(5)]
    assert all(np.array_equal(eval_outs[0], o) for o in eval_outs[1:])
    assert eval_outs[0].shape == (1, 1000)

    rng = np.random.default_rng(1)
    x_data = ms.Tensor(rng.random((10, 3, 64, 64), dtype=np.float32))
    y_data = ms.Tensor(rng.integers(0, 100, size=(10,)).astype(np.int32))
    optim = ms.nn.Adam(model.trainable_params(), learning_rate=1e-3)
    loss_fn = ms.nn.CrossEntropyLoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(model(x), y), None, optim.parameters)
    model.set_train()
    losses = []
    for _ in range(10):
        loss, grads = grad_fn(x_data, y_data)
        optim(grads)
        losses.append(float(loss.asnumpy()))
    assert losses[-1] < 0.5 * losses[0], losses
    for h in handles:
        h.remove()
    assert model.hooks() == []
