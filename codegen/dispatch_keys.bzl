"""The runtime's dispatch keys: the one table of them.

runtime/dispatch_key.h declares them as a C++ enum in this order (and runtime/device.h
the device types of the backend keys, numbered alike): //tests/generated:dispatch_keys_test
holds both to this table. The generator (codegen/dest/library.py) and the Starlark rules
(rules/private/library.bzl) read it; nothing else lists the keys. Each row:
  name: the key as native_functions.yaml writes it;
  kind: "backend" (chosen by the tensors' device, numbered as the runtime's DeviceType)
    or "fallback" (tried in this order after a backend's own kernel);
  library_backend: whether a library may list it in `backends` (Meta is always generated);
  device_code: whether its kernels run on a device other than the CPU, so that their
    wrappers make the tensors' device current and check that they share it;
  build_setting: the config_setting under which its kernels from `backend_deps` are
    built (None: always).
"""

DISPATCH_KEYS = [
    {"name": "CPU", "kind": "backend", "library_backend": True, "device_code": False, "build_setting": None},
    {"name": "CUDA", "kind": "backend", "library_backend": True, "device_code": True, "build_setting": "//config:cuda_enabled"},
    {"name": "Meta", "kind": "backend", "library_backend": False, "device_code": False, "build_setting": None},
    {"name": "Common", "kind": "fallback", "library_backend": False, "device_code": False, "build_setting": None},
    {"name": "CompositeExplicitAutograd", "kind": "fallback", "library_backend": False, "device_code": False, "build_setting": None},
    {"name": "CompositeImplicitAutograd", "kind": "fallback", "library_backend": False, "device_code": False, "build_setting": None},
]
