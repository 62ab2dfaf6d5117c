"""Which profiler events carry a CUDA-graph replay's kernels (device check for profile.py)."""
import torch
from torch.profiler import profile, ProfilerActivity, schedule

import tcexplore

model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.GELU()).cuda()
x = torch.randn(64, 256, device="cuda")
with torch.no_grad():
    f = torch.compile(model, mode="reduce-overhead")
    for _ in range(5):
        f(x)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 with_flops=True, schedule=schedule(wait=0, warmup=2, active=3, repeat=1),
                 acc_events=True) as p:
        for _ in range(5):
            f(x)
            torch.cuda.synchronize()
            p.step()
for e in p.events():
    ks = getattr(e, "kernels", []) or []
    if ks:
        chain, a = [], e
        while a is not None:
            chain.append(a.name[:40])
            a = a.cpu_parent
        print(e.device_type, chain[:4], [k.name[:30] for k in ks][:4])
ex = tcexplore.explore(model, x, mode="reduce-overhead", time_budget_s=0.1, profile=True)
p = ex.document.data["profile"]
print("share", p["cudagraph_share"], "other", p["other_us"], [(r["name"][:40], r["kind"], r["time_us"]) for r in p["kernels"]])
