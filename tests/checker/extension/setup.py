# A torch.utils.cpp_extension project as many public ones are laid out: no CMake, no
# compilation database. tensorplace checks its sources with --torch-python (tests/checker,
# "a torch.utils.cpp_extension project is checked without a compilation database").
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension, CUDA_HOME

sources = ["csrc/scale.cpp"]
extension = CppExtension
if CUDA_HOME is not None:
    sources.append("csrc/scale_kernel.cu")
    extension = CUDAExtension

setup(
    name="planted_scale",
    ext_modules=[extension("planted_scale._C", sources)],
    cmdclass={"build_ext": BuildExtension},
)
