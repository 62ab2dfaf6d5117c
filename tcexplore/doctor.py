"""``tcexplore doctor``: what this machine can compile with, each problem with its fix."""

from __future__ import annotations

import subprocess

import torch

from . import _torch_compat


def _tiny_compile(device: str) -> str | None:
    """Compile and run a two-op function with Inductor on ``device``; the error text, or None."""
    try:
        fn = torch.compile(lambda x: (x.sin() + 1).sum(), backend="inductor")
        x = torch.randn(8, device=device)
        got = fn(x)
        if device != "cpu":
            torch.cuda.synchronize()
        if not torch.allclose(got.cpu(), (x.sin() + 1).sum().cpu(), rtol=1e-4, atol=1e-4):
            return "compiled result differs from eager"
    except Exception as exc:  # noqa: BLE001 - reported to the user
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    finally:
        torch.compiler.reset()
    return None


def _compiler_version(compiler: str) -> str | None:
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.splitlines()[0] if out.returncode == 0 and out.stdout else None


def run_doctor() -> int:
    problems: list[tuple[str, str]] = []
    env = _torch_compat.environment()
    print(f"torch     {env['torch']}  (python {env['python']}, {env['platform']})")
    print(f"triton    {env['triton'] or 'not installed'}")
    print(f"CUDA      {env['cuda'] or 'CPU-only build'}")
    print(f"GPUs      {', '.join(env['gpus']) or 'none visible'}")
    missing = _torch_compat.check()
    for name in missing:
        problems.append(
            (name, f"use a torch release tcexplore supports ({_torch_compat.SUPPORTED_TORCH})")
        )
    try:
        compiler = _torch_compat.cpp_compiler()
    except Exception as exc:  # noqa: BLE001
        compiler = None
        problems.append(
            (
                f"no C++ compiler found: {exc}",
                "install one (Debian/Ubuntu: apt-get install g++) or set CXX",
            )
        )
    if compiler:
        version = _compiler_version(compiler)
        print(f"C++       {compiler}: {version or 'does not run'}")
        if version is None:
            problems.append(
                (
                    f"C++ compiler {compiler} does not run",
                    "install g++ or point CXX at a working compiler",
                )
            )
    print(f"backends  {', '.join(torch.compiler.list_backends())}")
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        error = _tiny_compile(device)
        print(f"compile   {device}: {'ok' if error is None else 'FAILED - ' + error}")
        if error is not None:
            fix = (
                "check the C++ compiler above (Inductor builds C++ on CPU)"
                if device == "cpu"
                else "install a Triton matching this torch (pip install triton) and a CUDA driver"
            )
            problems.append((f"Inductor cannot compile on {device}: {error}", fix))
    if torch.cuda.is_available() and env["triton"] is None:
        problems.append(
            (
                "a GPU is visible but Triton is not installed",
                "pip install triton (the version your torch wheel pins)",
            )
        )
    if not problems:
        print("\nall good: tcexplore can capture torch.compile here")
        return 0
    print("\nproblems:")
    for problem, fix in problems:
        print(f"  - {problem}\n    fix: {fix}")
    return 1
