"""What the typed wrappers of the native ops share: the checks of Python arguments that the dispatcher's
schema matching would otherwise report less clearly (TorchScript leaves them out)."""
import torch


@torch.jit.unused
def check_tensor(op: str, name: str, value: object) -> None:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"ascend_ext.{op}: argument '{name}' must be a torch.Tensor, got {type(value).__name__}")


@torch.jit.unused
def check_operand(op: str, name: str, value: object) -> None:
    if not isinstance(value, (torch.Tensor, int, float, bool)):
        raise TypeError(f"ascend_ext.{op}: argument '{name}' must be a torch.Tensor or a real number, "
                        f"got {type(value).__name__}")
