// Generated: one line per (rank, joined axis), rank 1 to 6. Each entry is
// [tuple field, left dim, right dim, per-axis rule, its method].
concat_along!(0; [0 A0 B0 DimSum sum]);
concat_along!(0; [0 A0 B0 DimSum sum] [1 A1 B1 JoinDim join]);
concat_along!(1; [0 A0 B0 JoinDim join] [1 A1 B1 DimSum sum]);
concat_along!(0; [0 A0 B0 DimSum sum] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join]);
concat_along!(1; [0 A0 B0 JoinDim join] [1 A1 B1 DimSum sum] [2 A2 B2 JoinDim join]);
concat_along!(2; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 DimSum sum]);
concat_along!(0; [0 A0 B0 DimSum sum] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join]);
concat_along!(1; [0 A0 B0 JoinDim join] [1 A1 B1 DimSum sum] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join]);
concat_along!(2; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 DimSum sum] [3 A3 B3 JoinDim join]);
concat_along!(3; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 DimSum sum]);
concat_along!(0; [0 A0 B0 DimSum sum] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join]);
concat_along!(1; [0 A0 B0 JoinDim join] [1 A1 B1 DimSum sum] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join]);
concat_along!(2; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 DimSum sum] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join]);
concat_along!(3; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 DimSum sum] [4 A4 B4 JoinDim join]);
concat_along!(4; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 DimSum sum]);
concat_along!(0; [0 A0 B0 DimSum sum] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join] [5 A5 B5 JoinDim join]);
concat_along!(1; [0 A0 B0 JoinDim join] [1 A1 B1 DimSum sum] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join] [5 A5 B5 JoinDim join]);
concat_along!(2; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 DimSum sum] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join] [5 A5 B5 JoinDim join]);
concat_along!(3; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 DimSum sum] [4 A4 B4 JoinDim join] [5 A5 B5 JoinDim join]);
concat_along!(4; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 DimSum sum] [5 A5 B5 JoinDim join]);
concat_along!(5; [0 A0 B0 JoinDim join] [1 A1 B1 JoinDim join] [2 A2 B2 JoinDim join] [3 A3 B3 JoinDim join] [4 A4 B4 JoinDim join] [5 A5 B5 DimSum sum]);
