"""Ctrl-C (SIGINT) in the command line: exit 130 with ``interrupted``, no traceback, no half-written file.

While a command runs, :func:`catching` replaces Python's SIGINT handler with one that

* raises :class:`KeyboardInterrupt` in the main thread, as Python's own handler does, so the
  command stops as soon as Python regains control (a compiled kernel cannot be stopped inside:
  the signal is acted on when it returns, which the engine makes frequent by running long
  streams in bounded segments);
* never raises while numba compiles a kernel in the main thread: an exception thrown inside
  LLVM's passes leaves numba in a broken state (seen: the interrupt swallowed and the run
  finishing, ``RuntimeError: no compiled object yet``, a segmentation fault at exit). The
  interrupt is raised as soon as that compilation ends (a helper thread waits for numba's
  compiler lock and re-delivers it);
* remembers the request, so that :func:`check` (called by the progress bar at every chunk and
  before any output is written) raises it again if a library swallowed it (an exception raised
  inside a ``__del__`` or a C callback is only printed as "Exception ignored");
* ignores further Ctrl-C while the first one unwinds, so that the cleanup of temporary files
  (:mod:`streamtk.io.atomic`) is not cut short.

:func:`streamtk.cli.main` catches the :class:`KeyboardInterrupt`, prints ``streamtk COMMAND:
interrupted`` and returns 130 (128 + SIGINT, the shell's convention).
"""

from __future__ import annotations

import _thread
import contextlib
import signal
import sys
import threading

__all__ = ["catching", "check"]


class _State:
    active = False
    requested = False  # a SIGINT arrived during this command
    raised = False  # ... and a KeyboardInterrupt was raised for it
    waiting = False  # a helper thread waits for numba's compilation to end


_STATE = _State()


def _compiler_lock():
    """numba's global compiler lock, or None when numba is not imported (nothing can be compiling)."""
    module = sys.modules.get("numba.core.compiler_lock")
    return getattr(module, "global_compiler_lock", None)


def _compiling() -> bool:
    """True while the calling (main) thread holds numba's compiler lock."""
    lock = _compiler_lock()
    if lock is None:
        return False
    try:
        return bool(lock.is_locked())
    except (AttributeError, TypeError, RuntimeError):  # another numba version: assume it is safe
        return False


def _redeliver_after_compilation() -> None:
    """Wait (in a daemon thread) until the main thread releases the compiler lock, then interrupt it again."""
    lock = _compiler_lock()

    def wait():
        inner = getattr(lock, "_lock", None)  # an RLock: acquired here only once the main thread let go
        while _STATE.active:
            if inner is None:
                threading.Event().wait(0.05)
                break
            if inner.acquire(timeout=0.05):
                inner.release()
                break
        _STATE.waiting = False
        if _STATE.active and not _STATE.raised:
            _thread.interrupt_main(signal.SIGINT)

    if not _STATE.waiting:
        _STATE.waiting = True
        threading.Thread(target=wait, name="streamtk-interrupt", daemon=True).start()


def _handler(signum, frame):
    if _STATE.raised:
        return  # the first Ctrl-C is unwinding: let the cleanup finish
    _STATE.requested = True
    if _compiling():
        _redeliver_after_compilation()
        return
    _STATE.raised = True
    raise KeyboardInterrupt


def check() -> None:
    """Raise :class:`KeyboardInterrupt` if Ctrl-C was pressed during this command (no-op otherwise).

    Called between chunks and before outputs are written, so that an interrupt that some library
    swallowed still stops the command before it prints or writes results.
    """
    if _STATE.active and _STATE.requested and not _compiling():
        _STATE.raised = True
        raise KeyboardInterrupt


@contextlib.contextmanager
def catching(*, program: bool = False):
    """Install the handler for the duration of one command (main thread only); restore the old one after.

    ``program``: the command is the whole process (``streamtk ...``, ``python -m streamtk ...``). Once
    it was interrupted, further Ctrl-C are then ignored until the process exits with status 130:
    Python's own handler would turn one arriving during the interpreter's shutdown into death by
    SIGINT (status -2 instead of 130), or a traceback.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    _STATE.requested = _STATE.raised = _STATE.waiting = False
    _STATE.active = True
    signal.signal(signal.SIGINT, _handler)
    try:
        yield
    finally:
        _STATE.active = False
        if program and _STATE.requested:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        else:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
