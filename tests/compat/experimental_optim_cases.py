"""The cases of tests/compat/test_experimental_optim.py, run alike by MindSpore 2.10 (which
wrote their values into experimental_optim_ms210.json: tools/experimental_optim_values.py) and by
hookgrad. ``ms`` is the framework module (``mindspore``, or hookgrad under that name)."""
import numpy as np

W0 = [[0.5, -1.0], [1.5, 2.0]]
B0 = [0.1, -0.2, 0.3]
GRADS = [([[0.1, -0.2], [0.3, 0.05]], [1.0, -0.5, 0.0]),
         ([[-0.1, -0.3], [0.2, 0.4]], [0.5, 0.5, -1.0]),
         ([[0.2, 0.1], [-0.3, 0.1]], [-0.2, 0.3, 0.4]),
         ([[0.05, 0.2], [0.1, -0.2]], [0.1, -0.1, 0.2])]

OPTIMIZERS = {
    'SGD': dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
    'SGD_nesterov': dict(lr=0.1, momentum=0.9, nesterov=True, maximize=True),
    'SGD_plain': dict(lr=0.1),
    'Adam': dict(lr=0.1, weight_decay=0.01),
    'Adam_amsgrad': dict(lr=0.05, betas=(0.8, 0.9), eps=1e-6, amsgrad=True, maximize=True),
    'AdamW': dict(lr=0.1),
    'AdamW_amsgrad': dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True,
                          maximize=True),
    'Adadelta': dict(lr=0.5, rho=0.8, weight_decay=0.01),
    'Adagrad': dict(lr=0.1, lr_decay=0.1, weight_decay=0.01, initial_accumulator_value=0.1),
    'ASGD': dict(lr=0.1, lambd=0.01, alpha=0.5, t0=2.0, weight_decay=0.01),
    'Adamax': dict(lr=0.1, weight_decay=0.01, maximize=True),
    'RMSprop': dict(lr=0.01, weight_decay=0.01),
    'RMSprop_centered': dict(lr=0.01, alpha=0.9, momentum=0.5, centered=True, maximize=True),
    'Rprop': dict(lr=0.1, etas=(0.4, 1.5), step_sizes=(0.01, 0.3)),
    'RAdam': dict(lr=0.1, betas=(0.5, 0.6), weight_decay=0.01),
    'RAdam_default': dict(lr=0.1),
    'NAdam': dict(lr=0.1, weight_decay=0.01, momentum_decay=0.1),
}

SCHEDULERS = {
    'StepLR': lambda L, o: L.StepLR(o, step_size=2, gamma=0.5),
    'LinearLR': lambda L, o: L.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=4),
    'ExponentialLR': lambda L, o: L.ExponentialLR(o, gamma=0.9),
    'PolynomialLR': lambda L, o: L.PolynomialLR(o, total_iters=4, power=2.0),
    'LambdaLR': lambda L, o: L.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e),
    'MultiplicativeLR': lambda L, o: L.MultiplicativeLR(o, lr_lambda=lambda e: 0.9),
    'MultiStepLR': lambda L, o: L.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.5),
    'ConstantLR': lambda L, o: L.ConstantLR(o, factor=0.5, total_iters=3),
    'CosineAnnealingLR': lambda L, o: L.CosineAnnealingLR(o, T_max=3, eta_min=0.01),
    'CosineAnnealingWarmRestarts': lambda L, o: L.CosineAnnealingWarmRestarts(
        o, T_0=3, T_mult=2, eta_min=0.01),
    'CosineAnnealingWarmRestarts_T1': lambda L, o: L.CosineAnnealingWarmRestarts(
        o, T_0=3, eta_min=0.01),
    'CyclicLR': lambda L, o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                        step_size_down=3),
    'CyclicLR_tri2': lambda L, o: L.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1,
                                             step_size_up=2, mode='triangular2'),
    'CyclicLR_exp': lambda L, o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                            mode='exp_range', gamma=0.9),
}
# step(epoch): the closed forms (T_mult > 1 is left out: MindSpore 2.10 fails on it)
EPOCHS = [('StepLR', 5), ('ExponentialLR', 3), ('LinearLR', 2), ('CosineAnnealingLR', 2),
          ('ConstantLR', 4), ('PolynomialLR', 3), ('CosineAnnealingWarmRestarts_T1', 7)]

ERRORS = {
    'not_opt': lambda L, o: L.StepLR(1, 2),
    'step_size': lambda L, o: L.StepLR(o, 2.0),
    'gamma': lambda L, o: L.StepLR(o, 2, gamma=1),
    'last_epoch': lambda L, o: L.StepLR(o, 2, last_epoch=-2),
    'resume': lambda L, o: L.StepLR(o, 2, last_epoch=3),
    'linear': lambda L, o: L.LinearLR(o, start_factor=0),
    'lambdas': lambda L, o: L.LambdaLR(o, [lambda e: 1.0]),
    'plateau_mode': lambda L, o: L.ReduceLROnPlateau(o, mode='x'),
    'plateau_factor': lambda L, o: L.ReduceLROnPlateau(o, factor=1.0),
    'cyclic_mode': lambda L, o: L.CyclicLR(o, 0.01, 0.1, mode='x'),
    'warm_T0': lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=0),
    'seq': lambda L, o: L.SequentialLR(o, [L.StepLR(o, 2)], milestones=[1]),
    'cos_T': lambda L, o: L.CosineAnnealingLR(o, T_max=2.0),
    'poly_power': lambda L, o: L.PolynomialLR(o, power=-1.0),
    'multistep': lambda L, o: L.MultiStepLR(o, milestones=(1, 2)),
}


def _params(ms):
    w = ms.Parameter(ms.Tensor(np.array(W0, np.float32)), 'w')
    b = ms.Parameter(ms.Tensor(np.array(B0, np.float32)), 'b')
    return w, b


def _two_groups(ms, optim):
    w, b = _params(ms)
    return optim.SGD([{'params': [w]}, {'params': [b], 'lr': 0.5}], lr=0.1)


def _rates(scheduler):
    return [float(lr.asnumpy()) for lr in scheduler.get_last_lr()]


def _group_rates(optimizer):
    return [float(group['lr'].asnumpy()) for group in optimizer.param_groups]


def run_optimizers(ms, optim):
    """{case: [w, b] after four steps}."""
    out = {}
    for case, kwargs in OPTIMIZERS.items():
        w, b = _params(ms)
        optimizer = getattr(optim, case.split('_')[0])([w, b], **kwargs)
        for gw, gb in GRADS:
            optimizer((ms.Tensor(np.array(gw, np.float32)), ms.Tensor(np.array(gb, np.float32))))
        out[case] = [w.asnumpy().tolist(), b.asnumpy().tolist()]
    w, b = _params(ms)
    optimizer = optim.SGD([{'params': [w], 'lr': 0.5}, {'params': [b]}], lr=0.1, momentum=0.5)
    for gw, gb in GRADS:
        optimizer((ms.Tensor(np.array(gw, np.float32)), ms.Tensor(np.array(gb, np.float32))))
    out['SGD_groups'] = [w.asnumpy().tolist(), b.asnumpy().tolist()]
    return out


def run_schedulers(ms, optim):
    """{case: the rates of two groups over ten epochs, ...}, and the errors' (type, text)."""
    L = optim.lr_scheduler
    out = {}
    for name, make in SCHEDULERS.items():
        optimizer = _two_groups(ms, optim)
        scheduler = make(L, optimizer)
        seq = [_rates(scheduler)]
        for _ in range(9):
            scheduler.step()
            seq.append(_rates(scheduler))
        out[name] = seq
        out[name + '_group'] = _group_rates(optimizer)
    for name, epoch in EPOCHS:
        optimizer = _two_groups(ms, optim)
        SCHEDULERS[name](L, optimizer).step(epoch)
        out[name + '_epoch'] = _group_rates(optimizer)
    optimizer = _two_groups(ms, optim)
    first, second = L.ConstantLR(optimizer, factor=0.5, total_iters=2), \
        L.ExponentialLR(optimizer, gamma=0.9)
    scheduler = L.SequentialLR(optimizer, schedulers=[first, second], milestones=[2])
    seq = [_rates(scheduler)]
    for _ in range(6):
        scheduler.step()
        seq.append(_rates(scheduler))
    out['SequentialLR'] = seq
    optimizer = _two_groups(ms, optim)
    scheduler = L.ReduceLROnPlateau(optimizer, mode='min', factor=0.5, patience=1, cooldown=1,
                                    min_lr=0.02)
    seq = []
    for metric in [1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85]:
        scheduler.step(ms.Tensor(metric))
        seq.append(_rates(scheduler))
    out['ReduceLROnPlateau'] = seq
    errors = {}
    for name, make in ERRORS.items():
        try:
            make(L, _two_groups(ms, optim))
            errors[name] = None
        except Exception as e:    # noqa: BLE001  (the error's type and text are the result)
            errors[name] = [type(e).__name__, str(e)]
    out['errors'] = errors
    return out
