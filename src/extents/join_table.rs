// Generated: one line per (rank, joined axis), rank 1 to 6. Each entry is
// [tuple field, left dim, right dim, per-axis rule, its method].
concat_along!(0; [0 A0 R0 DimSum sum]);
concat_along!(0; [0 A0 R0 DimSum sum] [1 A1 R1 JoinDim join]);
concat_along!(1; [0 A0 R0 JoinDim join] [1 A1 R1 DimSum sum]);
concat_along!(0; [0 A0 R0 DimSum sum] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join]);
concat_along!(1; [0 A0 R0 JoinDim join] [1 A1 R1 DimSum sum] [2 A2 R2 JoinDim join]);
concat_along!(2; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 DimSum sum]);
concat_along!(0; [0 A0 R0 DimSum sum] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join]);
concat_along!(1; [0 A0 R0 JoinDim join] [1 A1 R1 DimSum sum] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join]);
concat_along!(2; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 DimSum sum] [3 A3 R3 JoinDim join]);
concat_along!(3; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 DimSum sum]);
concat_along!(0; [0 A0 R0 DimSum sum] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join]);
concat_along!(1; [0 A0 R0 JoinDim join] [1 A1 R1 DimSum sum] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join]);
concat_along!(2; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 DimSum sum] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join]);
concat_along!(3; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 DimSum sum] [4 A4 R4 JoinDim join]);
concat_along!(4; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 DimSum sum]);
concat_along!(0; [0 A0 R0 DimSum sum] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join] [5 A5 R5 JoinDim join]);
concat_along!(1; [0 A0 R0 JoinDim join] [1 A1 R1 DimSum sum] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join] [5 A5 R5 JoinDim join]);
concat_along!(2; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 DimSum sum] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join] [5 A5 R5 JoinDim join]);
concat_along!(3; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 DimSum sum] [4 A4 R4 JoinDim join] [5 A5 R5 JoinDim join]);
concat_along!(4; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 DimSum sum] [5 A5 R5 JoinDim join]);
concat_along!(5; [0 A0 R0 JoinDim join] [1 A1 R1 JoinDim join] [2 A2 R2 JoinDim join] [3 A3 R3 JoinDim join] [4 A4 R4 JoinDim join] [5 A5 R5 DimSum sum]);
