# tile_define_host_target(<name> <tile target> <found var> [IMPORTED]): an
# INTERFACE target <name> for the host API (include/tile/host/*.h, see
# docs/host.md): <tile target> plus the CUDA toolkit's cuBLAS, cuSOLVER and
# cuFFT (find_package(CUDAToolkit), CMake 3.17+). <found var> is set to TRUE,
# or FALSE (and no target) without the toolkit. Used by CMakeLists.txt
# (TILE_HOST=ON) and by tileConfig.cmake (find_package(tile COMPONENTS host)).
function(tile_define_host_target name tiletgt found)
    find_package(CUDAToolkit QUIET)
    if(NOT CUDAToolkit_FOUND OR NOT TARGET CUDA::cublas OR NOT TARGET CUDA::cusolver OR NOT TARGET CUDA::cufft)
        set(${found} FALSE PARENT_SCOPE)
        return()
    endif()
    # the toolkit's imported targets are directory-scoped: make those created
    # here global, so that a consumer in any directory can link <name>
    foreach(_lib cublas cusolver cufft)
        get_target_property(_glob CUDA::${_lib} IMPORTED_GLOBAL)
        get_target_property(_dir CUDA::${_lib} SOURCE_DIR)
        if(NOT _glob AND _dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
            set_target_properties(CUDA::${_lib} PROPERTIES IMPORTED_GLOBAL TRUE)
        endif()
    endforeach()
    if("IMPORTED" IN_LIST ARGN)
        add_library(${name} INTERFACE IMPORTED)
    else()
        add_library(${name} INTERFACE)
    endif()
    target_link_libraries(${name} INTERFACE ${tiletgt} CUDA::cublas CUDA::cusolver CUDA::cufft)
    set(${found} TRUE PARENT_SCOPE)
endfunction()
