"""Seed 000 (MindSpore hook programming guide): the HookBackward example, printed output included."""
import hookgrad as ms
from hookgrad import ops


def test_hook_backward_example_prints_the_seed_output(capsys):
    ms.set_context(mode=ms.PYNATIVE_MODE)

    def hook_fn(grad_out):
        print("hook_fn print grad_out:", grad_out)

    hook = ops.HookBackward(hook_fn)

    def hook_test(x, y):
        z = x * y
        z = hook(z)
        z = z * y
        return z

    def net(x, y):
        return ms.grad(hook_test, grad_position=(0, 1))(x, y)

    output = net(ms.Tensor(1, ms.float32), ms.Tensor(2, ms.float32))
    print("output:", output)
    assert capsys.readouterr().out.splitlines() == [
        "hook_fn print grad_out: (Tensor(shape=[], dtype=Float32, value= 2),)",
        "output: (Tensor(shape=[], dtype=Float32, value= 4), "
        "Tensor(shape=[], dtype=Float32, value= 4))",
    ]
