# tile_declare_features(<target>): the language standards tile.h needs, for
# each language the including project has enabled when this runs:
#   C     c_std_11     (_Generic, _Static_assert)
#   CXX   cxx_std_17   (host C++ builds of the CPU target)
#   CUDA  cuda_std_17  (nvcc: the launch path uses template<auto>)
# Languages enabled later (enable_language after add_subdirectory or
# find_package) are not seen: enable them first, or set the standard yourself.
function(tile_declare_features tgt)
    get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
    set(_features "")
    if("C" IN_LIST _langs)
        list(APPEND _features c_std_11)
    endif()
    if("CXX" IN_LIST _langs)
        list(APPEND _features cxx_std_17)
    endif()
    if("CUDA" IN_LIST _langs)
        list(APPEND _features cuda_std_17)
    endif()
    if(_features)
        set_property(TARGET ${tgt} APPEND PROPERTY INTERFACE_COMPILE_FEATURES ${_features})
    endif()
endfunction()
