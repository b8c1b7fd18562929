"""Which of torch's public names the namespace coverage test does not ask of glasstorch, and why.

`test_torch_coverage.py` measures torch's public names (``glasstorch/aten/torch_names.txt``,
written from torch by ``tools/torch_names.py``) against glasstorch. Two kinds of names are
left out, each kept here as data with its reason:

* EXCEPTED: torch's top level re-exports kernels a program never calls: TorchScript's IR
  types, quantized and backend-library kernels (mkldnn, miopen, cudnn, fbgemm), sparse
  internals, the multi-GPU batch-norm kernels. glasstorch leaves them out for good.
* CLAIMED: names another issue builds: linear algebra and spectral functions (18), the
  convolution, pooling, normalization and recurrent kernels (15, 16),
  distributions (20); and the areas no issue is filed for yet (sparse and nested tensors,
  graph capture). They leave this list as that work lands.
"""

EXCEPTED = {
    "TorchScript's IR, types and runtime (torch._C re-exports; glasstorch runs eagerly, as "
    "torch under PYTORCH_JIT=0)": """
        AVG AggregationType AliasDb AnyType Argument ArgumentSpec AwaitType
        BenchmarkConfig BenchmarkExecutionStats Block BoolType BufferDict CallStack Capsule
        ClassType Code CompilationUnit CompleteArgumentSpec ComplexType ConcreteModuleType
        ConcreteModuleTypeBuilder DeepCopyMemoTable DeserializationStorageContext
        DeviceObjType DictType EnumType ErrorReport ExecutionPlan FileCheck FloatType
        FunctionSchema FutureType Gradient Graph GraphExecutorState IODescriptor InferredType
        IntType InterfaceType JITException ListType LiteScriptModule LockingLogger LoggerBase
        ModuleDict Node NoneType NoopLogger NumberType OperatorInfo OptionalType ParameterDict
        PyObjectType PyTorchFileReader PyTorchFileWriter RRefType SUM ScriptClass
        ScriptClassFunction ScriptDict ScriptDictIterator ScriptDictKeyIterator ScriptFunction
        ScriptList ScriptListIterator ScriptMethod ScriptModule ScriptModuleSerializer
        ScriptObject ScriptObjectProperty SerializationStorageContext StaticModule
        StreamObjType StringType SymBoolType SymIntType Tag TensorType ThroughputBenchmark
        TracingState TupleType Type UnionType Use Value classes cpp import_ir_module
        import_ir_module_from_buffer merge_type_from_type_comment parse_ir parse_schema
        parse_type_comment unify_type_list""",
    "the C++ build's own switches and loader hooks": """
        PRIVATE_OPS USE_GLOBAL_DEPS USE_RTLD_GLOBAL_WITH_LIBTORCH classproperty
        compiled_with_cxx11_abi get_file_path prepare_multiprocessing_environment
        profiler_allow_cudagraph_cupti_lazy_reinit_cuda12""",
    "quantized tensors' kernels and dtypes (torch.ao's internals)": """
        QInt32Storage QInt8Storage QUInt2x4Storage QUInt4x2Storage QUInt8Storage bits16 bits1x8
        bits2x4 bits4x2 bits8 choose_qparams_optimized dequantize empty_quantized
        fake_quantize_per_channel_affine fake_quantize_per_tensor_affine float4_e2m1fn_x2
        fused_moving_avg_obs_fake_quant int1 int2 int3 int4 int5 int6 int7 int_repr
        per_channel_affine per_channel_affine_float_qparams per_channel_symmetric
        per_tensor_affine per_tensor_symmetric q_per_channel_axis q_per_channel_scales
        q_per_channel_zero_points q_scale q_zero_point qint32 qint8 qscheme quantize_per_channel
        quantize_per_tensor quantize_per_tensor_dynamic quantized_batch_norm quantized_gru
        quantized_gru_cell quantized_lstm quantized_lstm_cell quantized_max_pool1d
        quantized_max_pool2d quantized_max_pool3d quantized_rnn_relu_cell
        quantized_rnn_tanh_cell quint2x4 quint4x2 quint8 uint1 uint2 uint3 uint4 uint5 uint6
        uint7 bit""",
    "torch._C's dispatcher objects (glasstorch's dispatch keys are its own few bits, not "
    "torch's enum: a DispatchKey with other members would mislead)": """
        DispatchKey DispatchKeySet ExcludeDispatchKeyGuard""",
    "kernels of backend libraries (oneDNN, MIOpen, cuDNN, FBGEMM) that torch's layers "
    "choose among": """
        cudnn_affine_grid_generator cudnn_batch_norm cudnn_convolution
        cudnn_convolution_add_relu cudnn_convolution_relu cudnn_convolution_transpose
        cudnn_grid_sampler cudnn_is_acceptable fbgemm_linear_fp16_weight
        fbgemm_linear_fp16_weight_fp32_activation fbgemm_linear_int8_weight
        fbgemm_linear_int8_weight_fp32_activation fbgemm_linear_quantize_weight
        fbgemm_pack_gemm_matrix_fp16 fbgemm_pack_quantized_matrix miopen_batch_norm
        miopen_convolution miopen_convolution_add_relu miopen_convolution_relu
        miopen_convolution_transpose miopen_ctc_loss miopen_depthwise_convolution miopen_rnn
        mkldnn_adaptive_avg_pool2d mkldnn_convolution mkldnn_linear_backward_weights
        mkldnn_max_pool2d mkldnn_max_pool3d mkldnn_rnn_layer""",
    "sparse tensors' internal kernels (the sparse layouts' own arithmetic)": """
        dsmm hsmm hspmm resize_as_sparse_ saddmm smm spmm sspaddmm ccol_indices_copy
        col_indices_copy crow_indices_copy indices_copy row_indices_copy values_copy""",
    "SyncBatchNorm's multi-GPU kernels": """
        batch_norm_backward_elemt batch_norm_backward_reduce batch_norm_elemt
        batch_norm_gather_stats batch_norm_gather_stats_with_counts batch_norm_stats
        batch_norm_update_stats""",
}

# Tensor methods of the same kinds (quantized, sparse internals, oneDNN).
EXCEPTED_TENSOR = {
    "quantized tensors": "dequantize int_repr q_per_channel_axis q_per_channel_scales "
                         "q_per_channel_zero_points q_scale q_zero_point qscheme",
    "sparse tensors' internal kernels": "resize_as_sparse_ smm sspaddmm sparse_resize_ "
                                        "sparse_resize_and_clear_",
    "oneDNN's tensor layout": "to_mkldnn",
    "first-class dimensions (functorch.dim binds a tensor's dims to Dim objects)": "index",
}

# Names another issue builds: topic (with its issue) -> names. Sparse and nested tensors
# and graph capture have no issue filed yet: the names say so until one is.
CLAIMED = {
    "convolution, pooling, normalization, recurrent and loss kernels (issues 15 "
    "and 16)": """
        native_norm""",
    "sparse tensors (no issue filed yet; torch.sparse imports as a shell)": """
        sparse_bsc_tensor sparse_bsr_tensor sparse_compressed_tensor sparse_coo_tensor
        sparse_csc_tensor sparse_csr_tensor""",
    "nested tensors (no issue filed yet; torch.nested imports as a shell)":
        "jagged",
    "torch.export, torch.fx and symbolic shapes (a later issue, as issue 14 says)": """
        SymBool SymFloat SymInt sym_constrain_range sym_constrain_range_for_size sym_float
        sym_fresh_size sym_int sym_ite sym_max sym_min sym_not sym_sqrt sym_sum""",
}

CLAIMED_TENSOR = {
    "sparse tensors (no issue filed yet)": """
        ccol_indices coalesce col_indices crow_indices dense_dim indices is_coalesced
        is_sparse_csr row_indices sparse_dim sparse_mask to_dense to_sparse to_sparse_bsc
        to_sparse_bsr to_sparse_coo to_sparse_csc to_sparse_csr values""",
    "nested tensors (no issue filed yet)": "to_padded_tensor",
}


def names(table: dict) -> dict:
    """``{name: reason}`` from a table of ``{reason: "names separated by spaces"}``."""
    return {name: reason for reason, text in table.items() for name in text.split()}

# torch modules another issue builds (the modules of the areas above).
CLAIMED_MODULES = {
}

# Names of torch's submodules left out: namespace -> {reason: names}.
EXCEPTED_IN_MODULES = {
    "torch.utils.checkpoint": {
        "imported by torch's checkpoint for its own debug mode, outside its __all__: the "
        "logging tensor mode of torch's internal tests and torch.fx's traceback module":
        "LoggingTensorMode capture_logs fx_traceback",
    },
}
